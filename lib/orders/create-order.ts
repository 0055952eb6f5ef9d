import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { genericDb, preparedPerHandle } from "@/db/client";
import { campaigns, events, ticketTypes } from "@/db/schema";
import { inUuids, uuidArray } from "@/db/uuid-list";
import { sqlStateOf } from "@/lib/http/db-errors";
import { conflict, validationFailed, type ErrorDetail } from "@/lib/http/errors";
import { fromPublicId } from "@/lib/ids";
import { announceDeliveryStates } from "@/lib/webhooks/outbox";
import type { CreateOrderInput, Order } from "./order-schemas";
import { serializeOrder } from "./orders";
import {
  createdAtOf,
  eventNotOnSale,
  inItemIdOrder,
  noSuchEvent,
  orderCompletedPayloadTemplate,
  placedDeliveries,
  placeOrder,
  PLACE_ORDER_REFUSALS,
  type CheckedLine,
  type OrderToPlace,
} from "./place-order";
import { discountOf } from "./pricing";

// API-created orders carry no payment details unless the caller gives them; the columns are required.
const DEFAULT_PAYMENT_METHOD = "unspecified";
const DEFAULT_PAYMENT_METHOD_BRAND = "unspecified";
const DEFAULT_ORDER_SOURCE = "api";

// What an order reads of its ticket types: the checks' and the items' columns, not the whole row.
const lineTicketColumns = {
  id: ticketTypes.id,
  name: ticketTypes.name,
  category: ticketTypes.category,
  price: ticketTypes.price,
  vatPercent: ticketTypes.vatPercent,
  saleStartsAt: ticketTypes.saleStartsAt,
  saleEndsAt: ticketTypes.saleEndsAt,
  cancelledAt: ticketTypes.cancelledAt,
};
type LineTicket = { [K in keyof typeof lineTicketColumns]: (typeof ticketTypes.$inferSelect)[K] };
type CampaignRow = typeof campaigns.$inferSelect;

/**
 * Creates a completed order (POST /v1/orders): the one live path, so the only one that fires OrderCompleted.
 *
 * Error choices: `event_id`, `items.N.ticket_id` and `campaign_code` are references inside the body, so
 * an unknown, malformed, deleted or other organization's one is 400 validation_failed naming that field
 * (as for `venue_id` on event create), never 404. State problems are 409: event not published, a ticket
 * type cancelled or outside its sale window ("not on sale"), or not enough tickets left ("oversold").
 *
 * The checks read the event and its ticket types without a transaction (orderLines); the writes are one statement
 * (placeOrder), which holds the event FOR SHARE and checks it again, so a cancel or delete of the event committed
 * since the checks refuses the order, and one that comes later waits for it and then refunds it. The same statement
 * writes the order's outbox rows, one per integration subscribed to OrderCompleted, with the payload built here
 * (orderCompletedPayloadTemplate), so it is the whole transaction, with no BEGIN and COMMIT around it. The payload is
 * built only when the checks found such integrations; one subscribed since then refuses the order, which is placed
 * again with it. Nothing organization-wide is locked: the order number comes from the
 * organization's sequence and the counter triggers write this connection's slot rows (db/sql/order-counter-slot.sql).
 * The tickets are taken last from the ticket type's stock buckets, so one bucket row is held only for its update
 * and the commit and the ticket type's row is not written at all; an order that finds them sold out rolls back
 * everything, leaving a gap in the order numbers. The order in the response is built from what it wrote, not read
 * back. Every statement finds its rows by key, so all run on the sessions that plan a statement once (genericDb):
 * planning the checks' look-up for each order's values cost PostgreSQL twice what running it did.
 */
export async function createOrder(organizationId: string, input: CreateOrderInput): Promise<Order> {
  const { event, lines, subscribed } = await orderLines(organizationId, input);
  const campaign = input.campaign_code ? await findCampaign(organizationId, input.campaign_code) : null;

  const originalPrice = lines.reduce((sum, line) => sum + line.ticket.price * line.quantity, 0);
  const discount = campaign ? discountOf(campaign, originalPrice) : 0;
  const customer = {
    customerEmail: input.customer.email,
    customerName: input.customer.name,
    customerPhone: input.customer.phone_number ?? null,
  };
  const items = lines.map((line) => ({
    id: randomUUID(),
    ticketTypeId: line.ticket.id,
    name: line.ticket.name,
    quantity: line.quantity,
    unitPrice: line.ticket.price,
  }));
  const toPlace: OrderToPlace = {
    organizationId,
    event,
    ...customer,
    paymentMethod: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
    paymentMethodBrand: input.payment_method_brand ?? DEFAULT_PAYMENT_METHOD_BRAND,
    orderSource: input.order_source ?? DEFAULT_ORDER_SOURCE,
    originalPrice,
    totalPrice: originalPrice - discount,
    lines: lines.map((line, i) => ({
      id: items[i]!.id,
      ticket_type_id: line.ticket.id,
      name: line.ticket.name,
      category: line.ticket.category,
      quantity: line.quantity,
      unit_price: line.ticket.price,
      vat_percent: line.ticket.vatPercent,
    })),
    campaign: campaign && { id: campaign.id, name: campaign.name, code: campaign.code, discountAmount: discount },
  };
  // An integration subscribed since the checks found none makes place_order refuse the order without its payload.
  const placed = (!subscribed && (await placedUnlessSubscribed(toPlace, lines))) || (await placedWithOutbox(toPlace, lines));
  // Only after commit: a webhook must never announce an order that was rolled back.
  await announceDeliveryStates(placedDeliveries(placed));

  const orderRow = {
    id: placed.placed_id,
    status: "completed" as const,
    eventId: event.id,
    orderNumber: placed.placed_number,
    currency: placed.placed_currency,
    originalPrice,
    totalPrice: originalPrice - discount,
    ...customer,
    createdAt: createdAtOf(placed),
    refundReason: null,
    refundedAt: null,
  };
  return serializeOrder(orderRow, items.sort(inItemIdOrder));
}

/** The order placed without outbox rows, or null when an integration subscribed since the checks read none. */
async function placedUnlessSubscribed(order: OrderToPlace, lines: Line[]) {
  try {
    return await placeOrder(genericDb, order, lines, null);
  } catch (error) {
    if (sqlStateOf(error)?.code === PLACE_ORDER_REFUSALS.integrationsSubscribed) return null;
    throw error;
  }
}

/** The order placed with an outbox row per integration place_order finds subscribed (none if they left meanwhile). */
const placedWithOutbox = (order: OrderToPlace, lines: Line[]) => placeOrder(genericDb, order, lines, orderCompletedPayloadTemplate(order));

interface Line extends CheckedLine {
  ticket: LineTicket;
}

/**
 * What the checks read, in one statement prepared once: the event, its ticket types asked for, and whether any
 * integration of the organization is subscribed to OrderCompleted (see createOrder).
 */
const preparedOrderLines = preparedPerHandle((database) =>
  database
    .select({
      event: { id: events.id, name: events.name, status: events.status },
      ticket: lineTicketColumns,
      subscribed: sql<boolean>`cardinality(subscribed_integrations(${events.organizationId}, 'OrderCompleted')) > 0`,
    })
    .from(events)
    .leftJoin(
      ticketTypes,
      and(
        eq(ticketTypes.organizationId, events.organizationId),
        eq(ticketTypes.eventId, events.id),
        inUuids(ticketTypes.id, sql.placeholder("ticketTypeIds")),
      ),
    )
    .where(and(eq(events.organizationId, sql.placeholder("organizationId")), eq(events.id, sql.placeholder("eventId")), isNull(events.deletedAt)))
    .prepare("order_lines"),
);

/**
 * The order's event and its ticket types by line (preparedOrderLines), checked: an unknown or deleted event, or a
 * ticket type that is not this event's, is 400 naming the field; an unpublished event or a ticket type off sale is 409.
 */
async function orderLines(organizationId: string, input: CreateOrderInput) {
  const eventId = fromPublicId("event", input.event_id);
  const ids = input.items.map((item) => fromPublicId("ticketType", item.ticket_id));
  const wanted = ids.filter((id): id is string => id !== null);
  const rows = eventId ? await preparedOrderLines().execute({ organizationId, eventId, ticketTypeIds: uuidArray(wanted) }) : [];
  const event = rows[0]?.event;
  if (!event) throw noSuchEvent();
  if (event.status !== "published") throw eventNotOnSale(event.status);
  const byId = new Map(rows.flatMap(({ ticket }) => (ticket ? [[ticket.id, ticket] as const] : [])));

  const unknown: ErrorDetail[] = [];
  const lines: Line[] = [];
  input.items.forEach((item, index) => {
    const ticket = byId.get(ids[index] ?? "");
    if (ticket) lines.push({ index, quantity: item.quantity, ticket });
    else unknown.push({ path: `items.${index}.ticket_id`, message: "no such ticket type for this event" });
  });
  if (unknown.length) throw validationFailed(unknown);

  const now = Date.now();
  for (const line of lines) {
    const { ticket } = line;
    const window = ticket.saleStartsAt.getTime() <= now && now < ticket.saleEndsAt.getTime();
    if (ticket.cancelledAt || !window) throw conflict(`Ticket type "${ticket.name}" (items.${line.index}) is not on sale`);
  }
  return { event, lines, subscribed: rows[0]!.subscribed };
}

async function findCampaign(organizationId: string, code: string): Promise<CampaignRow> {
  const [campaign] = await genericDb
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.organizationId, organizationId),
        sql`upper(${campaigns.code}) = upper(${code})`,
        eq(campaigns.active, true),
      ),
    )
    .limit(1);
  if (!campaign) throw validationFailed([{ path: "campaign_code", message: "no active campaign with this code" }]);
  return campaign;
}
