import { z } from "zod";
import type { ExportQuery } from "@/lib/analytics/export-schemas";
import { toPublicId } from "@/lib/ids";
import { transactionsQuerySchema, type TransactionsQuery } from "@/lib/orders/order-schemas";
import { transactionFacets } from "@/lib/orders/transactions-search";
import { hrefWith } from "./paging";

export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

/** The search parameters of /orders that the transactions search understands. */
const ORDER_PARAMS = [
  "q",
  "date_from",
  "date_to",
  "event_id",
  "is_refunded",
  "order_source",
  "payment_method",
  "sort",
  "order",
  "size",
  "from",
] as const;

/**
 * The /orders URL as a transactions query. A hand-edited URL must not break the page, so every
 * parameter the search refuses is dropped (falls back to its default) instead of failing the request.
 */
export function ordersQueryFromSearchParams(params: Record<string, string | string[] | undefined>): TransactionsQuery {
  const input: Record<string, string> = {};
  for (const name of ORDER_PARAMS) {
    const value = params[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== "") input[name] = text;
  }
  if (!PAGE_SIZES.map(String).includes(input.size ?? "")) input.size = String(DEFAULT_PAGE_SIZE);
  // Each round drops at least one offending parameter, so this ends after at most one round per parameter.
  for (let round = 0; round <= ORDER_PARAMS.length; round++) {
    const parsed = transactionsQuerySchema.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) delete input[String(issue.path[0])];
  }
  return transactionsQuerySchema.parse({ size: String(DEFAULT_PAGE_SIZE) });
}

/** The filters and sort of an /orders query as URL parameters, defaults left out so links stay short. */
function filterParams(query: TransactionsQuery): Record<string, string | undefined> {
  return {
    q: query.q,
    date_from: query.date_from?.text.replace(/T00:00:00Z$/, ""),
    date_to: query.date_to?.text.replace(/T00:00:00Z$/, ""),
    event_id: query.event_id && toPublicId("event", query.event_id),
    is_refunded: query.is_refunded === undefined ? undefined : String(query.is_refunded),
    order_source: query.order_source,
    payment_method: query.payment_method,
    sort: query.sort === "date" ? undefined : query.sort,
    order: query.order === "desc" ? undefined : query.order,
  };
}

/** The /orders link for the query with `changes`. */
export function ordersHref(query: TransactionsQuery, changes: Partial<Record<string, string | number>> = {}): string {
  return hrefWith("/orders", {
    ...filterParams(query),
    size: query.size === DEFAULT_PAGE_SIZE ? undefined : query.size,
    from: query.from === 0 ? undefined : query.from,
    ...changes,
  });
}

/** The "Export CSV" link: the same filters and sort, every page. */
export function ordersExportHref(query: TransactionsQuery): string {
  return hrefWith("/orders/export", filterParams(query));
}

/**
 * The export of /orders/export: the URL read as the orders page reads it (so a link from the page exports
 * exactly what the page lists), as an export query.
 */
export function ordersExportQuery(params: Record<string, string | string[] | undefined>): ExportQuery {
  const { size: _size, from: _from, ...filters } = ordersQueryFromSearchParams(params);
  return { ...filters, format: "csv", rows: "orders" };
}

/** The values the filter selects offer: every event orders can belong to, and the channels and payment methods sold through. */
export async function orderFilterOptions(organizationId: string) {
  const facets = await transactionFacets(organizationId);
  return { ...facets, events: facets.events.map((event) => ({ ...event, publicId: toPublicId("event", event.id) })) };
}

export const refundOrderFormSchema = z.strictObject({
  uuid: z.uuid(),
  reason: z
    .string()
    .trim()
    .max(500, "At most 500 characters")
    .transform((reason) => reason || undefined),
});
