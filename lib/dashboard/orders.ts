import { z } from "zod";
import { db } from "@/db/client";
import { transactionsQuerySchema, type TransactionsQuery } from "@/lib/orders/order-schemas";
import { loadTransactionOrders, type TransactionOrder } from "@/lib/orders/transaction-order";
import { hrefWith } from "./paging";

export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

/** The search parameters of /orders that the transactions search understands. */
const ORDER_PARAMS = ["q", "date_from", "date_to", "sort", "order", "size", "from"] as const;

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

/** The /orders link for the query with `changes`, leaving out defaults so links stay short. */
export function ordersHref(query: TransactionsQuery, changes: Partial<Record<string, string | number>> = {}): string {
  return hrefWith("/orders", {
    q: query.q,
    date_from: query.date_from?.text.replace(/T00:00:00Z$/, ""),
    date_to: query.date_to?.text.replace(/T00:00:00Z$/, ""),
    sort: query.sort === "date" ? undefined : query.sort,
    order: query.order === "desc" ? undefined : query.order,
    size: query.size === DEFAULT_PAGE_SIZE ? undefined : query.size,
    from: query.from === 0 ? undefined : query.from,
    ...changes,
  });
}

/** One order of the organization in the transactions shape (cart items, campaigns), or null. */
export async function getDashboardOrder(organizationId: string, uuid: string): Promise<TransactionOrder | null> {
  if (!z.uuid().safeParse(uuid).success) return null;
  const [order] = await loadTransactionOrders(db, organizationId, [uuid]);
  return order ?? null;
}

export const refundOrderFormSchema = z.strictObject({
  uuid: z.uuid(),
  reason: z
    .string()
    .trim()
    .max(500, "At most 500 characters")
    .transform((reason) => reason || undefined),
});
