import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { db, type Transaction } from "@/db/client";
import { campaigns, events, orderCampaigns, orderItems, orders, organizations, ticketTypes } from "@/db/schema";
import { conflict, validationFailed, type ErrorDetail } from "@/lib/http/errors";
import { fromPublicId } from "@/lib/ids";
import { announceDeliveries, recordOrderCompleted } from "@/lib/webhooks/outbox";
import type { CreateOrderInput, Order } from "./order-schemas";
import { loadOrder } from "./orders";
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
 * (db/sql/order-counter-slot.sql). The tickets are reserved last (reserveTickets), so the ticket type's row
 * is held only for its update and the commit; an order that finds them sold out rolls back everything,
 * leaving a gap in the order numbers.
 */
export async function createOrder(organizationId: string, input: CreateOrderInput): Promise<Order> {
  const { order, deliveryIds } = await db.transaction(async (tx) => {
    const event = await lockEvent(tx, organizationId, input.event_id);
    const lines = await resolveLines(tx, organizationId, event.id, input.items);
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
      .returning({ id: orders.id });
    const orderId = row!.id;

    await tx.insert(orderItems).values(
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
    );
    if (campaign) {
      await tx
        .insert(orderCampaigns)
        .values({ orderId, campaignId: campaign.id, name: campaign.name, code: campaign.code, discountAmount: discount });
    }

    const deliveryIds = await recordOrderCompleted(tx, organizationId, orderId);
    const order = await loadOrder(tx, organizationId, orderId);
    await reserveTickets(tx, lines);
    return { order, deliveryIds };
  });
  // Only after commit: a webhook must never announce an order that was rolled back.
  await announceDeliveries(deliveryIds);
  return order;
}

/**
 * Raises quantity_sold by a conditional UPDATE per ticket type (in id order, so concurrent orders cannot
 * deadlock) that matches no row once the tickets would run out. The last statement before commit: the
 * ticket type's row, which every buyer of an on-sale waits for, is held only for this and the commit.
 */
async function reserveTickets(tx: Transaction, lines: Line[]) {
  for (const line of [...lines].sort((a, b) => (a.ticket.id < b.ticket.id ? -1 : 1))) {
    const reserved = await tx
      .update(ticketTypes)
      .set({ quantitySold: sql`${ticketTypes.quantitySold} + ${line.quantity}`, updatedAt: sql`now()` })
      .where(
        and(
          eq(ticketTypes.id, line.ticket.id),
          isNull(ticketTypes.cancelledAt),
          sql`${ticketTypes.quantitySold} + ${line.quantity} <= ${ticketTypes.quantityTotal}`,
        ),
      )
      .returning({ id: ticketTypes.id });
    if (reserved.length === 0) {
      throw conflict(`Not enough tickets left for "${line.ticket.name}" (items.${line.index}) to sell ${line.quantity}`);
    }
  }
}

async function lockEvent(tx: Transaction, organizationId: string, publicId: string) {
  const eventId = fromPublicId("event", publicId);
  const [event] = eventId
    ? await tx
        .select({ id: events.id, name: events.name, status: events.status })
        .from(events)
        .where(and(eq(events.organizationId, organizationId), eq(events.id, eventId), isNull(events.deletedAt)))
        .for("share")
    : [];
  if (!event) throw validationFailed([{ path: "event_id", message: "no such event" }]);
  if (event.status !== "published") throw conflict(`Event is ${event.status}; orders can only be placed for published events`);
  return event;
}

interface Line {
  index: number;
  quantity: number;
  ticket: TicketTypeRow;
}

async function resolveLines(
  tx: Transaction,
  organizationId: string,
  eventId: string,
  items: CreateOrderInput["items"],
): Promise<Line[]> {
  const ids = items.map((item) => fromPublicId("ticketType", item.ticket_id));
  const wanted = ids.filter((id): id is string => id !== null);
  const rows = wanted.length
    ? await tx
        .select()
        .from(ticketTypes)
        .where(
          and(
            eq(ticketTypes.organizationId, organizationId),
            eq(ticketTypes.eventId, eventId),
            inArray(ticketTypes.id, wanted),
          ),
        )
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));

  const unknown: ErrorDetail[] = [];
  const lines: Line[] = [];
  items.forEach((item, index) => {
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
  return lines;
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
