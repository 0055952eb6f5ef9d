import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { genericDb, rowsOf, type Transaction } from "@/db/client";
import { campaigns, events, ticketTypes, TICKET_PRODUCT_TYPE, type Currency } from "@/db/schema";
import { conflict, validationFailed, type ErrorDetail } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { announceDeliveryStates, recordOrderCompleted } from "@/lib/webhooks/outbox";
import type { CreateOrderInput, Order } from "./order-schemas";
import { serializeOrder } from "./orders";
import { discountOf } from "./pricing";
import { transactionOrderOf, type TransactionOrder } from "./transaction-order";

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
 * Concurrency: the event row is held FOR SHARE, so a concurrent cancel or delete of the event waits for
 * this order and then refunds it. Nothing organization-wide is locked: the order number comes from the
 * organization's sequence and the counter triggers write this connection's slot rows
 * (db/sql/order-counter-slot.sql). The writes are one statement after the checks (placeOrder), which takes
 * the tickets last from the ticket type's stock buckets, so one bucket row is held only for its update and
 * the commit and the ticket type's row is not written at all; an order that finds them sold out rolls back
 * everything, leaving a gap in the order numbers. The order in the response is built from what it wrote,
 * not read back. Every statement finds its rows by key, so the transaction runs on the sessions that plan a
 * statement once (genericDb): planning the event's and ticket types' look-up for each order's values cost
 * PostgreSQL twice what running it did.
 */
export async function createOrder(organizationId: string, input: CreateOrderInput): Promise<Order> {
  const { order, deliveries } = await genericDb.transaction(async (tx) => {
    const { event, lines } = await lockEventWithLines(tx, organizationId, input);
    const campaign = input.campaign_code ? await findCampaign(tx, organizationId, input.campaign_code) : null;

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
    const placed = await placeOrder(tx, toPlace);
    const soldOut = lines.find((line) => line.ticket.id === placed.sold_out);
    if (soldOut) {
      throw conflict(`Not enough tickets left for "${soldOut.ticket.name}" (items.${soldOut.index}) to sell ${soldOut.quantity}`);
    }

    // A timestamptz text from postgres.js as drizzle configures it, a Date from PGlite.
    const createdAt = new Date(placed.placed_at);
    const deliveries = placed.integration_ids.length
      ? await recordOrderCompleted(tx, organizationId, placedTransactionOrder(toPlace, placed, createdAt), placed.integration_ids)
      : [];
    const orderRow = {
      id: placed.placed_id,
      status: "completed" as const,
      eventId: event.id,
      orderNumber: placed.placed_number,
      currency: placed.placed_currency,
      originalPrice,
      totalPrice: originalPrice - discount,
      ...customer,
      createdAt,
      refundReason: null,
      refundedAt: null,
    };
    return { order: serializeOrder(orderRow, items.sort(inItemIdOrder)), deliveries };
  });
  // Only after commit: a webhook must never announce an order that was rolled back.
  await announceDeliveryStates(deliveries);
  return order;
}

/** Item order as every read of an order lists them (by item uuid, which PostgreSQL compares as this text does). */
const inItemIdOrder = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

interface OrderToPlace {
  organizationId: string;
  event: { id: string; name: string };
  customerEmail: string;
  customerName: string;
  customerPhone: string | null;
  paymentMethod: string;
  paymentMethodBrand: string;
  orderSource: string;
  originalPrice: number;
  totalPrice: number;
  /** place_order's `lines` (db/sql/place-order.sql). */
  lines: { id: string; ticket_type_id: string; name: string; category: string; quantity: number; unit_price: number; vat_percent: number }[];
  campaign: { id: string; name: string; code: string; discountAmount: number } | null;
}

interface Placed {
  placed_id: string;
  placed_number: number;
  placed_currency: Currency;
  placed_at: string | Date;
  integration_ids: string[];
  sold_out: string | null;
}

/**
 * The order's writes and the taking of its tickets, in one statement (db/sql/place-order.sql), the last
 * before commit, so a stock row is held only for this and the commit: one round trip where the statements
 * it runs took three, and none of drizzle's building of two inserts per order.
 */
async function placeOrder(tx: Transaction, order: OrderToPlace): Promise<Placed> {
  const { campaign } = order;
  const [placed] = rowsOf<Placed>(
    await tx.execute(sql`select * from place_order(${order.organizationId}, ${order.event.id}, ${order.event.name},
      ${order.customerEmail}, ${order.customerName}, ${order.customerPhone}, ${order.paymentMethod}, ${order.paymentMethodBrand},
      ${order.orderSource}, ${order.originalPrice}, ${order.totalPrice}, ${JSON.stringify(order.lines)}::jsonb,
      ${campaign?.id ?? null}, ${campaign?.name ?? null}, ${campaign?.code ?? null}, ${campaign?.discountAmount ?? null})`),
  );
  return placed!;
}

/**
 * The OrderCompleted payload of a placed order (a 2.2 Order), from what place_order wrote rather than read back
 * while the order's stock row is held: the object loadTransactionOrders reads (tests/integration/orders.test.ts
 * compares the payload with the transactions search's order).
 */
function placedTransactionOrder(order: OrderToPlace, placed: Placed, createdAt: Date): TransactionOrder {
  const event = toPublicId("event", order.event.id);
  const items = [...order.lines]
    .sort(inItemIdOrder)
    .map((line) => ({
      product_type: TICKET_PRODUCT_TYPE,
      name: line.name,
      quantity: line.quantity,
      price: line.unit_price,
      vat: line.vat_percent,
      event,
      event_name: order.event.name,
      category: line.category,
    }));
  const { campaign } = order;
  return transactionOrderOf(
    {
      uuid: placed.placed_id,
      email: order.customerEmail,
      phone_number: order.customerPhone,
      customer_name: order.customerName,
      total_price: order.totalPrice,
      payment_method: order.paymentMethod,
      payment_method_brand: order.paymentMethodBrand,
      is_refunded: false,
      order_number: placed.placed_number,
      order_source: order.orderSource,
      created_at: createdAt.toISOString(),
      refund_reason: null,
      refunded_at: null,
      organization: toPublicId("organization", order.organizationId),
      event,
      currency: placed.placed_currency,
      original_price: order.originalPrice,
    },
    items,
    campaign ? [{ uuid: campaign.id, name: campaign.name, code: campaign.code, discount_amount: campaign.discountAmount }] : [],
  );
}

interface Line {
  index: number;
  quantity: number;
  ticket: LineTicket;
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
        .select({ event: { id: events.id, name: events.name, status: events.status }, ticket: lineTicketColumns })
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
