import { createHash } from "node:crypto";
import { z } from "zod";
import type { TransactionsQuery } from "./order-schemas";

/**
 * The opaque `cursor` of the transactions search (Elasticsearch's search_after): the sort key and uuid of
 * the last order of a page, and a fingerprint of the sort and filters it was made for, so a cursor cannot
 * silently continue a different search. base64url JSON; opaque to callers, not secret.
 */
export interface TransactionsCursor {
  /** Fingerprint of the sort, order and filters (see cursorFingerprint). */
  f: string;
  /** The last order's sort key as PostgreSQL text (see cursorKeyText in transactions-search.ts). */
  k: string;
  /** The last order's uuid, the tie-breaker. */
  i: string;
}

type CursorScope = Omit<TransactionsQuery, "size" | "from" | "cursor">;

/** Everything a cursor must agree with: sort, order and every filter (not size, which may change between pages). */
export function cursorFingerprint(query: CursorScope): string {
  const scope = [query.sort, query.order, query.date_from ?? null, query.date_to ?? null, query.q ?? null, query.event_id ?? null, query.is_refunded ?? null, query.order_source ?? null, query.payment_method ?? null];
  return createHash("sha256").update(JSON.stringify(scope)).digest("base64url").slice(0, 16);
}

export function encodeCursor(cursor: TransactionsCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

const cursorShape = z.strictObject({ f: z.string().max(64), k: z.string().max(1000), i: z.uuid() });

/** The `cursor` query parameter: decoded, or a validation issue naming it. */
export const cursorParam = z
  .string()
  .max(2000)
  .transform((text, ctx) => {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    } catch {
      decoded = undefined;
    }
    const parsed = cursorShape.safeParse(decoded);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "must be a next_cursor returned by this search" });
      return z.NEVER;
    }
    return parsed.data;
  });
