import type { orderItems } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import type { Cell } from "./export-format";

/** The cart item columns an items export reads. */
export type ExportItem = Pick<
  typeof orderItems.$inferSelect,
  "orderId" | "ticketTypeId" | "name" | "category" | "productType" | "quantity" | "unitPrice" | "vatPercent"
>;

/** The order columns an export reads; timestamps arrive as ISO text from the database (no Date per row). */
export interface ExportOrderRow {
  id: string;
  orderNumber: number;
  createdAt: string;
  eventId: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  currency: string;
  totalPrice: number;
  originalPrice: number;
  isRefunded: boolean;
  orderSource: string;
  paymentMethod: string;
  paymentMethodBrand: string;
  refundedAt: string | null;
  refundReason: string | null;
}

/** What one export row is built from: the order, its event's name and its tickets (sum of item quantities). */
export interface ExportOrder {
  order: ExportOrderRow;
  eventName: string;
  tickets: number;
}

type Column<T> = readonly [name: string, value: (row: T) => Cell];

const ORDER_HEAD: Column<ExportOrder>[] = [
  ["order_number", ({ order }) => order.orderNumber],
  ["order_uuid", ({ order }) => order.id],
  ["created_at", ({ order }) => order.createdAt],
  ["event_id", ({ order }) => toPublicId("event", order.eventId)],
  ["event_name", ({ eventName }) => eventName],
  ["customer_name", ({ order }) => order.customerName],
  ["email", ({ order }) => order.customerEmail],
];

const ORDER_TAIL: Column<ExportOrder>[] = [
  ["is_refunded", ({ order }) => order.isRefunded],
  ["order_source", ({ order }) => order.orderSource],
  ["payment_method", ({ order }) => order.paymentMethod],
  ["payment_method_brand", ({ order }) => order.paymentMethodBrand],
];

/** One row per order (README, "Export columns"). */
export const ORDER_COLUMNS: Column<ExportOrder>[] = [
  ...ORDER_HEAD,
  ["phone_number", ({ order }) => order.customerPhone],
  ["currency", ({ order }) => order.currency],
  ["total_price", ({ order }) => order.totalPrice],
  ["original_price", ({ order }) => order.originalPrice],
  ["tickets", ({ tickets }) => tickets],
  ...ORDER_TAIL,
  ["refunded_at", ({ order }) => order.refundedAt],
  ["refund_reason", ({ order }) => order.refundReason],
];

/** One row per cart item (rows=items), the order's columns repeated on each. */
export const ITEM_COLUMNS: Column<ExportOrder & { item: ExportItem }>[] = [
  ...ORDER_HEAD,
  ["currency", ({ order }) => order.currency],
  ["ticket_type_id", ({ item }) => toPublicId("ticketType", item.ticketTypeId)],
  ["item_name", ({ item }) => item.name],
  ["category", ({ item }) => item.category],
  ["product_type", ({ item }) => item.productType],
  ["quantity", ({ item }) => item.quantity],
  ["unit_price", ({ item }) => item.unitPrice],
  ["line_total", ({ item }) => item.quantity * item.unitPrice],
  ["vat_percent", ({ item }) => item.vatPercent],
  ...ORDER_TAIL,
];
