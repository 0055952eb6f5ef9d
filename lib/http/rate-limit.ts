import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the count next drops below the limit. */
  resetAt: number;
  retryAfterSeconds: number;
}

/** Counts this request against the key's rolling-minute limit: one database round trip (see rate_limit_hit). */
export async function checkRateLimit(apiKeyId: string, limit: number): Promise<RateLimitResult> {
  const [row] = rowsOf<{ allowed: boolean; remaining: number; reset_at: string | number }>(
    await db.execute(sql`select allowed, remaining, reset_at from rate_limit_hit(${apiKeyId}::uuid, ${limit}::integer)`),
  );
  const resetAt = Number(row!.reset_at);
  return {
    allowed: row!.allowed,
    limit,
    remaining: row!.remaining,
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
