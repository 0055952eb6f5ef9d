import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { ApiError } from "./errors";

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the count next drops below the limit. */
  resetAt: number;
  retryAfterSeconds: number;
}

/**
 * Counts this request against the subject's rolling-minute limit: one database round trip (see
 * rate_limit_hit). The subject is an API key's id or a dashboard user's.
 */
export async function checkRateLimit(subjectId: string, limit: number): Promise<RateLimitResult> {
  const [row] = rowsOf<RateLimitRow>(
    await db.execute(sql`select allowed, remaining, reset_at from rate_limit_hit(${subjectId}::uuid, ${limit}::integer)`),
  );
  return rateLimitResult(row!, limit);
}

/** The columns rate_limit_hit returns. */
export interface RateLimitRow {
  allowed: boolean;
  remaining: number;
  reset_at: string | number;
}

export function rateLimitResult(row: RateLimitRow, limit: number): RateLimitResult {
  const resetAt = Number(row.reset_at);
  return {
    allowed: row.allowed,
    limit,
    remaining: row.remaining,
    resetAt,
    retryAfterSeconds: Math.max(1, resetAt - Math.floor(Date.now() / 1000)),
  };
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.resetAt),
  };
}

/** Counts the request and returns the X-RateLimit-* headers, or throws the 429 (with Retry-After) when over the limit. */
export async function enforceRateLimit(subjectId: string, limit: number): Promise<Record<string, string>> {
  return admitted(await checkRateLimit(subjectId, limit));
}

/** The X-RateLimit-* headers of a counted request, or the 429 (with Retry-After) when it was over the limit. */
export function admitted(result: RateLimitResult): Record<string, string> {
  const headers = rateLimitHeaders(result);
  if (!result.allowed) {
    throw new ApiError("rate_limited", "Rate limit exceeded; retry after the time given in Retry-After", undefined, {
      ...headers,
      "Retry-After": String(result.retryAfterSeconds),
    });
  }
  return headers;
}
