import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";

// PostgreSQL integer range: offsets, pages and numbers beyond it are malformed, not clamped.
export const PG_INT_MAX = 2_147_483_647;

/** A whole-number query parameter; text such as "1.5", "1e3", "0x10" or "" is refused rather than coerced. */
export function intParam(min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
}

/** `page` and `per_page` of every /v1 list and the delivery list. */
export const paginationQuerySchema = z.object({
  page: intParam(1, PG_INT_MAX, 1),
  per_page: intParam(1, 100, 25),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

export const paginationMetaSchema = z.object({ page: z.int(), per_page: z.int(), total: z.int() });

export function pageOf(query: PaginationQuery) {
  return { limit: query.per_page, offset: (query.page - 1) * query.per_page };
}

export function pageMeta(query: PaginationQuery, total: number): z.output<typeof paginationMetaSchema> {
  return { page: query.page, per_page: query.per_page, total };
}

export type SortOrder = "asc" | "desc";

/** How a list is sorted: one of its sort keys, and the direction. */
export interface ListOrder<S extends string> {
  sort: S;
  order: SortOrder;
}

/** The order every list starts in: newest first. */
export const NEWEST_FIRST = { sort: "created", order: "desc" } as const satisfies ListOrder<"created">;

/** A sort expression that may be NULL: its rows without a value come last in both directions. */
export interface NullableSort {
  nullsLast: SQLWrapper;
}

export type SortColumn = SQLWrapper | NullableSort;

/**
 * ORDER BY of a sorted list: the sort expression, then the id in the same direction. The id makes the order
 * total, so a row never shows up on two pages or on none; the same direction lets an index on (…, column, id) serve it.
 */
export function orderThenId(column: SortColumn, id: SQLWrapper, order: SortOrder): SQL[] {
  const direction = order === "asc" ? sql`asc` : sql`desc`;
  if ("nullsLast" in column) return [sql`${column.nullsLast} ${direction} nulls last`, sql`${id} ${direction}`];
  return [sql`${column} ${direction}`, sql`${id} ${direction}`];
}

/** A status column's position in `values`, so statuses sort in their lifecycle order rather than A–Z. */
export function rankOf(column: SQLWrapper, values: readonly string[]): SQL {
  return sql`array_position(array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[], ${column})`;
}
