import { sql } from "drizzle-orm";
import { rowsOf, type Queryable } from "@/db/client";
import { TICKET_PRODUCT_TYPE, type Currency } from "@/db/schema";
import { sqlStateOf } from "@/lib/http/db-errors";
import { conflict, validationFailed, type ApiError } from "@/lib/http/errors";
import { toPublicId } from "@/lib/ids";
import { transactionOrderOf, type TransactionOrder } from "./transaction-order";

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
  integration_ids: string[];
}

/** A timestamptz text from postgres.js as drizzle configures it, a Date from PGlite. */
export const createdAtOf = (placed: Placed) => new Date(placed.placed_at);

/** place_order's refusals by SQLSTATE (db/sql/place-order.sql). */
export const PLACE_ORDER_REFUSALS = { soldOut: "TK001", eventNotOnSale: "TK002", integrationsSubscribed: "TK003" };

/**
 * The order's writes, the event's lock and check and the taking of its tickets, in one statement
 * (db/sql/place-order.sql), the last before commit, so a stock row is held only for this and the commit; none of
 * drizzle's building of two inserts per order. `outboxFollows`: the caller writes the order's outbox rows in the same
 * transaction (see createOrder).
 */
export async function placeOrder(q: Queryable, order: OrderToPlace, lines: CheckedLine[], outboxFollows: boolean): Promise<Placed> {
  const { campaign } = order;
  try {
    const [placed] = rowsOf<Placed>(
      await q.execute(sql`select * from place_order(${order.organizationId}, ${order.event.id}, ${order.event.name},
        ${order.customerEmail}, ${order.customerName}, ${order.customerPhone}, ${order.paymentMethod}, ${order.paymentMethodBrand},
        ${order.orderSource}, ${order.originalPrice}, ${order.totalPrice}, ${JSON.stringify(order.lines)}::jsonb,
        ${campaign?.id ?? null}, ${campaign?.name ?? null}, ${campaign?.code ?? null}, ${campaign?.discountAmount ?? null}, ${outboxFollows})`),
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
 * The OrderCompleted payload of a placed order (a 2.2 Order), from what place_order wrote rather than read back
 * while the order's stock row is held: the object loadTransactionOrders reads (tests/integration/orders.test.ts
 * compares the payload with the transactions search's order).
 */
export function placedTransactionOrder(order: OrderToPlace, placed: Placed): TransactionOrder {
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
      created_at: createdAtOf(placed).toISOString(),
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

