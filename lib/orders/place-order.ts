import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "@/db/client";
import { TICKET_PRODUCT_TYPE, type Currency } from "@/db/schema";
import type { DeliveryState } from "@/inngest/events";
import { sqlStateOf } from "@/lib/http/db-errors";
import { conflict, validationFailed, type ApiError } from "@/lib/http/errors";
import { toPublicId } from "@/lib/ids";
import { transactionOrderOf } from "./transaction-order";

/** An order's writes as place_order takes them (db/sql/place-order.sql), after createOrder's checks. */
export interface OrderToPlace {
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

/** A line of the order as the checks found it: its position in the request, for the errors that name it. */
export interface CheckedLine {
  index: number;
  quantity: number;
  ticket: { id: string; name: string };
}

/** What place_order returns for the order it wrote. */
export interface Placed {
  placed_id: string;
  placed_number: number;
  placed_currency: Currency;
  placed_at: string | Date;
  /** The order's OrderCompleted outbox rows, each for the integration at the same place in integration_ids. */
  delivery_ids: string[];
  integration_ids: string[];
}

/** A timestamptz text from postgres.js as drizzle configures it, a Date from PGlite. */
export const createdAtOf = (placed: Placed) => new Date(placed.placed_at);

/** The outbox rows place_order wrote, as announcing them needs: new rows, their updated_at the order's. */
export const placedDeliveries = (placed: Placed): DeliveryState[] =>
  placed.delivery_ids.map((deliveryId, i) => ({ deliveryId, integrationId: placed.integration_ids[i]!, attemptCount: 0, updatedAt: placed.placed_at }));

/** place_order's refusals by SQLSTATE (db/sql/place-order.sql). */
export const PLACE_ORDER_REFUSALS = { soldOut: "TK001", eventNotOnSale: "TK002", integrationsSubscribed: "TK003" };

/**
 * The order's writes, the event's lock and check, its outbox rows and the taking of its tickets, in one statement
 * (db/sql/place-order.sql), its own transaction, so a stock row is held only for the last of them and the commit; none
 * of drizzle's building of inserts, and no BEGIN and COMMIT round trips. `payloadTemplate`: the OrderCompleted payload
 * (orderCompletedPayloadTemplate) when the caller found integrations subscribed, null when it found none.
 */
export async function placeOrder(q: Queryable, order: OrderToPlace, lines: CheckedLine[], payloadTemplate: string | null): Promise<Placed> {
  const { campaign } = order;
  try {
    const [placed] = rowsOf<Placed>(
      await q.execute(sql`select * from place_order(${order.organizationId}, ${order.event.id}, ${order.event.name},
        ${order.customerEmail}, ${order.customerName}, ${order.customerPhone}, ${order.paymentMethod}, ${order.paymentMethodBrand},
        ${order.orderSource}, ${order.originalPrice}, ${order.totalPrice}, ${JSON.stringify(order.lines)}::jsonb,
        ${campaign?.id ?? null}, ${campaign?.name ?? null}, ${campaign?.code ?? null}, ${campaign?.discountAmount ?? null}, ${payloadTemplate})`),
    );
    return placed!;
  } catch (error) {
    throw refusalOf(error, lines) ?? error;
  }
}

/** A refusal of place_order as the API's error: what the checks would have answered had they seen it. */
function refusalOf(error: unknown, lines: CheckedLine[]): ApiError | undefined {
  const state = sqlStateOf(error);
  if (state?.code === PLACE_ORDER_REFUSALS.eventNotOnSale) return state.detail === "deleted" ? noSuchEvent() : eventNotOnSale(state.detail!);
  const soldOut = state?.code === PLACE_ORDER_REFUSALS.soldOut && lines.find((line) => line.ticket.id === state.detail);
  if (soldOut) return conflict(`Not enough tickets left for "${soldOut.ticket.name}" (items.${soldOut.index}) to sell ${soldOut.quantity}`);
  return undefined;
}

export const noSuchEvent = () => validationFailed([{ path: "event_id", message: "no such event" }]);
export const eventNotOnSale = (status: string) => conflict(`Event is ${status}; orders can only be placed for published events`);

/** Item order as every read of an order lists them (by item uuid, which PostgreSQL compares as this text does). */
export const inItemIdOrder = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

/**
 * The values of an order that only place_order knows, each left empty in the payload and replaced by its format() slot
 * (db/sql/place-order.sql). A quoted name followed by a colon is always a key, since JSON escapes every quote inside a
 * string, so each pattern finds its own field: the order's uuid is its first key (a campaign's is never empty), and the
 * other three keys appear once.
 */
const PAYLOAD_SLOTS = [
  ['{"uuid":""', '{"uuid":"%1$s"'],
  ['"order_number":0,', '"order_number":%2$s,'],
  ['"created_at":""', '"created_at":"%3$s"'],
  ['"currency":""', '"currency":"%4$s"'],
] as const;

/**
 * The OrderCompleted payload (a 2.2 Order) of the order to place, as place_order's template: built from what the
 * order will write rather than read back while its stock row is held, with its id, number, created_at and currency
 * left for place_order to fill in, and every other `%` doubled for format(). tests/integration/orders.test.ts
 * compares the payload with the transactions search's order, including the characters format() and the slots use.
 */
export function orderCompletedPayloadTemplate(order: OrderToPlace): string {
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
  const payload = transactionOrderOf(
    {
      uuid: "",
      email: order.customerEmail,
      phone_number: order.customerPhone,
      customer_name: order.customerName,
      total_price: order.totalPrice,
      payment_method: order.paymentMethod,
      payment_method_brand: order.paymentMethodBrand,
      is_refunded: false,
      order_number: 0,
      order_source: order.orderSource,
      created_at: "",
      refund_reason: null,
      refunded_at: null,
      organization: toPublicId("organization", order.organizationId),
      event,
      currency: "",
      original_price: order.originalPrice,
    },
    items,
    campaign ? [{ uuid: campaign.id, name: campaign.name, code: campaign.code, discount_amount: campaign.discountAmount }] : [],
  );
  return PAYLOAD_SLOTS.reduce((template, [empty, slot]) => template.replace(empty, slot), JSON.stringify(payload).replaceAll("%", "%%"));
}
