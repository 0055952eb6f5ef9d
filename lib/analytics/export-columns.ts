import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { events, orderItems, orders } from "@/db/schema";
import { isoText, publicIdText } from "@/db/output-values";

/**
 * A column of the export (README, "Export columns"): its name and the SQL of its value. A `text` cell is
 * neutralised and quoted in CSV (export_csv_field); the others, numbers and flags, are written as they are.
 */
export interface ExportColumn {
  name: string;
  value: SQL | AnyPgColumn;
  text: boolean;
}

const text = (name: string, value: SQL | AnyPgColumn): ExportColumn => ({ name, value, text: true });
const plain = (name: string, value: SQL | AnyPgColumn): ExportColumn => ({ name, value, text: false });

const ORDER_HEAD = [
  plain("order_number", orders.orderNumber),
  text("order_uuid", orders.id),
  text("created_at", isoText(orders.createdAt)),
  text("event_id", publicIdText("event", orders.eventId)),
  text("event_name", events.name),
  text("customer_name", orders.customerName),
  text("email", orders.customerEmail),
];

const ORDER_TAIL = [
  plain("is_refunded", orders.isRefunded),
  text("order_source", orders.orderSource),
  text("payment_method", orders.paymentMethod),
  text("payment_method_brand", orders.paymentMethodBrand),
];

/** One row per order. */
export const ORDER_COLUMNS: ExportColumn[] = [
  ...ORDER_HEAD,
  text("phone_number", orders.customerPhone),
  text("currency", orders.currency),
  plain("total_price", orders.totalPrice),
  plain("original_price", orders.originalPrice),
  plain("tickets", sql`(select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orders.id})`),
  ...ORDER_TAIL,
  text("refunded_at", isoText(orders.refundedAt)),
  text("refund_reason", orders.refundReason),
];

/** One row per cart item (rows=items), the order's columns repeated on each. */
export const ITEM_COLUMNS: ExportColumn[] = [
  ...ORDER_HEAD,
  text("currency", orders.currency),
  text("ticket_type_id", publicIdText("ticketType", orderItems.ticketTypeId)),
  text("item_name", orderItems.name),
  text("category", orderItems.category),
  text("product_type", orderItems.productType),
  plain("quantity", orderItems.quantity),
  plain("unit_price", orderItems.unitPrice),
  plain("line_total", sql`${orderItems.quantity}::bigint * ${orderItems.unitPrice}`),
  plain("vat_percent", orderItems.vatPercent),
  ...ORDER_TAIL,
];
