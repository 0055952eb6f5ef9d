import { and, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { db, rowsOf, type Transaction } from "@/db/client";
import { campaigns, events, orderCampaigns, orderItems, orders, organizations, ticketTypes } from "@/db/schema";
import { conflict, validationFailed, type ErrorDetail } from "@/lib/http/errors";
import { fromPublicId } from "@/lib/ids";
import { announceDeliveries, recordOrderCompleted, subscribedIntegrations } from "@/lib/webhooks/outbox";
import type { CreateOrderInput, Order } from "./order-schemas";
import { serializeOrder } from "./orders";
import { discountOf } from "./pricing";

// API-created orders carry no payment details unless the caller gives them; the columns are required.
const DEFAULT_PAYMENT_METHOD = "unspecified";
const DEFAULT_PAYMENT_METHOD_BRAND = "unspecified";
const DEFAULT_ORDER_SOURCE = "api";

type TicketTypeRow = typeof ticketTypes.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;

/**
 * Creates a completed order (POST /v1/orders): the one live path, so the only one that fires OrderCompleted.
 *
 * Error choices: `event_id`, `items.N.ticket_id` and `campaign_code` are references inside the body, so
 * an unknown, malformed, deleted or other organization's one is 400 validation_failed naming that field
 * (as for `venue_id` on event create), never 404. State problems are 409: event not published, a ticket
 * type cancelled or outside its sale window ("not on sale"), or not enough tickets left ("oversold").
 *
 * Concurrency: the event row is held FOR SHARE, so a concurrent cancel or delete of the event waits for
 * this order and then refunds it. Nothing organization-wide is locked: the order number comes from the
 * organization's sequence and the counter triggers write this connection's slot rows
 * (db/sql/order-counter-slot.sql). The tickets are reserved last (reserveTickets) from the ticket type's
 * stock buckets, so one bucket row is held only for its update and the commit and the ticket type's row is
 * not written at all; an order that finds them sold out rolls back everything, leaving a gap in the order
 * numbers. The order in the response is built from the inserted rows, not read back.
 */
export async function createOrder(organizationId: string, input: CreateOrderInput): Promise<Order> {
  const { order, deliveryIds } = await db.transaction(async (tx) => {
    const { event, lines } = await lockEventWithLines(tx, organizationId, input);
    const campaign = input.campaign_code ? await findCampaign(tx, organizationId, input.campaign_code) : null;

    const originalPrice = lines.reduce((sum, line) => sum + line.ticket.price * line.quantity, 0);
    const discount = campaign ? discountOf(campaign, originalPrice) : 0;
    const [row] = await tx
      .insert(orders)
      .values({
        organizationId,
        eventId: event.id,
        orderNumber: sql`next_order_number(${organizationId})`,
        status: "completed",
        customerEmail: input.customer.email,
        customerName: input.customer.name,
        customerPhone: input.customer.phone_number ?? null,
        paymentMethod: input.payment_method ?? DEFAULT_PAYMENT_METHOD,
        paymentMethodBrand: input.payment_method_brand ?? DEFAULT_PAYMENT_METHOD_BRAND,
        orderSource: input.order_source ?? DEFAULT_ORDER_SOURCE,
        currency: sql`(select ${organizations.currency} from ${organizations} where ${organizations.id} = ${organizationId})`,
        originalPrice,
        totalPrice: originalPrice - discount,
      })
      .returning({ ...getTableColumns(orders), integrationIds: subscribedIntegrations(organizationId, "OrderCompleted") });
    const { integrationIds, ...orderRow } = row!;
    const orderId = orderRow.id;

    const items = await tx
      .insert(orderItems)
      .values(
        lines.map((line) => ({
          orderId,
          ticketTypeId: line.ticket.id,
          name: line.ticket.name,
          category: line.ticket.category,
          quantity: line.quantity,
          unitPrice: line.ticket.price,
          vatPercent: line.ticket.vatPercent,
          eventId: event.id,
          eventName: event.name,
        })),
      )
      .returning();
    if (campaign) {
      await tx
        .insert(orderCampaigns)
        .values({ orderId, campaignId: campaign.id, name: campaign.name, code: campaign.code, discountAmount: discount });
    }

    const deliveryIds = await recordOrderCompleted(tx, organizationId, orderId, integrationIds);
    await reserveTickets(tx, lines);
    // Items in id order, as every read of an order lists them.
    return { order: serializeOrder(orderRow, items.sort((a, b) => (a.id < b.id ? -1 : 1))), deliveryIds };
  });
  // Only after commit: a webhook must never announce an order that was rolled back.
  await announceDeliveries(deliveryIds);
  return order;
}

/**
 * Takes the tickets from their ticket types' stock (db/sql/take-tickets.sql: this connection's bucket row,
 * or all of a type's buckets in order when that one runs short) in one statement, the last before commit, so a
 * stock row is held only for this and the commit. A ticket type without enough left is a 409 (rolled back).
 */
async function reserveTickets(tx: Transaction, lines: Line[]) {
  const ids = `{${lines.map((line) => line.ticket.id).join(",")}}`;
  const quantities = `{${lines.map((line) => line.quantity).join(",")}}`;
  const [result] = rowsOf<{ sold_out: string | null }>(
    await tx.execute(sql`select take_tickets(${ids}::uuid[], ${quantities}::int[]) as sold_out`),
  );
  const line = lines.find((candidate) => candidate.ticket.id === result?.sold_out);
  if (line) throw conflict(`Not enough tickets left for "${line.ticket.name}" (items.${line.index}) to sell ${line.quantity}`);
}

interface Line {
  index: number;
  quantity: number;
  ticket: TicketTypeRow;
}

/**
 * The order's event, held FOR SHARE (see createOrder), and its ticket types by line, read in one statement:
 * an unknown or deleted event, or a ticket type that is not this event's, is 400 naming the field; an
 * unpublished event or a ticket type off sale is 409.
 */
async function lockEventWithLines(tx: Transaction, organizationId: string, input: CreateOrderInput) {
  const eventId = fromPublicId("event", input.event_id);
  const ids = input.items.map((item) => fromPublicId("ticketType", item.ticket_id));
  const wanted = ids.filter((id): id is string => id !== null);
  const rows = eventId
    ? await tx
        .select({ event: { id: events.id, name: events.name, status: events.status }, ticket: getTableColumns(ticketTypes) })
        .from(events)
        .leftJoin(
          ticketTypes,
          and(
            eq(ticketTypes.organizationId, organizationId),
            eq(ticketTypes.eventId, events.id),
            wanted.length ? inArray(ticketTypes.id, wanted) : sql`false`,
          ),
        )
        .where(and(eq(events.organizationId, organizationId), eq(events.id, eventId), isNull(events.deletedAt)))
        .for("share", { of: events })
    : [];
  const event = rows[0]?.event;
  if (!event) throw validationFailed([{ path: "event_id", message: "no such event" }]);
  if (event.status !== "published") throw conflict(`Event is ${event.status}; orders can only be placed for published events`);
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
  return { event, lines };
}

async function findCampaign(tx: Transaction, organizationId: string, code: string): Promise<CampaignRow> {
  const [campaign] = await tx
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
