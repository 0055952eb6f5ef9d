import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";

const DAY = "(o.created_at at time zone 'UTC')::date";
const TICKETS = "left join (select order_id, sum(quantity) as tickets from order_items group by 1) t on t.order_id = o.id";

/**
 * Every table the order triggers keep, with the same figures counted from orders and order_items: `exact`
 * selects the key columns and the summed columns under their names.
 */
const COUNTERS = {
  organization_order_counts: {
    key: ["organization_id"],
    sums: ["order_count"],
    exact: "select o.organization_id, count(*) as order_count from orders o group by 1",
  },
  order_customer_names: {
    key: ["organization_id", "name"],
    sums: ["order_count"],
    exact: "select o.organization_id, lower(o.customer_name) as name, count(*) as order_count from orders o group by 1, 2",
  },
  order_daily_counts: {
    key: ["organization_id", "day"],
    sums: ["order_count"],
    exact: `select o.organization_id, ${DAY} as day, count(*) as order_count from orders o group by 1, 2`,
  },
  order_daily_facet_counts: {
    key: ["organization_id", "day", "event_id", "is_refunded"],
    sums: ["order_count"],
    exact: `select o.organization_id, ${DAY} as day, o.event_id, o.is_refunded, count(*) as order_count from orders o group by 1, 2, 3, 4`,
  },
  order_daily_sales: {
    key: ["organization_id", "day", "event_id", "order_source", "payment_method", "is_refunded"],
    sums: ["order_count", "ticket_count", "revenue"],
    exact: `select o.organization_id, ${DAY} as day, o.event_id, o.order_source, o.payment_method, o.is_refunded, count(*) as order_count,
                   coalesce(sum(t.tickets), 0) as ticket_count, sum(o.total_price) as revenue
            from orders o ${TICKETS} group by 1, 2, 3, 4, 5, 6`,
  },
  order_daily_ticket_sales: {
    key: ["organization_id", "day", "ticket_type_id", "event_id", "order_source", "payment_method", "is_refunded"],
    sums: ["order_count", "ticket_count", "revenue"],
    exact: `select o.organization_id, ${DAY} as day, i.ticket_type_id, o.event_id, o.order_source, o.payment_method, o.is_refunded,
                   count(distinct o.id) as order_count, sum(i.quantity) as ticket_count, sum(i.quantity::bigint * i.unit_price) as revenue
            from orders o join order_items i on i.order_id = o.id group by 1, 2, 3, 4, 5, 6, 7`,
  },
} as const;

export type CounterTable = keyof typeof COUNTERS;
export const COUNTER_TABLES = Object.keys(COUNTERS) as CounterTable[];

async function sortedRows(text: string): Promise<string[]> {
  return rowsOf<Record<string, unknown>>(await db.execute(sql.raw(text)))
    .map((row) => JSON.stringify(row))
    .sort();
}

/** A trigger-kept table summed over its slots, keys whose figures cancelled out left out. */
export function keptCounts(table: CounterTable): Promise<string[]> {
  const { key, sums } = COUNTERS[table];
  return sortedRows(
    `select ${key.join(", ")}, ${sums.map((s) => `sum(${s})::text as ${s}`).join(", ")} from ${table}
     group by ${key.join(", ")} having ${sums.map((s) => `sum(${s}) <> 0`).join(" or ")}`,
  );
}

/** The same figures counted from the orders and their cart items. */
export function exactCounts(table: CounterTable): Promise<string[]> {
  const { key, sums } = COUNTERS[table];
  return sortedRows(`select ${key.join(", ")}, ${sums.map((s) => `${s}::text as ${s}`).join(", ")} from (${COUNTERS[table].exact}) e`);
}
