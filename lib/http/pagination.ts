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
