import { and, count, eq, gt, lte } from "drizzle-orm";
import { db, type Queryable } from "@/db/client";
import { loginAttempts } from "@/db/schema";

export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_LOGIN_FAILURES = 5;

const normalize = (email: string) => email.trim().toLowerCase();

/**
 * True when the e-mail address has had too many failed sign-ins within the window. Counted per address
 * (known or not) so the answer reveals nothing about which addresses exist.
 */
export async function isLoginThrottled(email: string, q: Queryable = db, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  const [row] = await q
    .select({ failures: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, normalize(email)), gt(loginAttempts.createdAt, since)));
  return (row?.failures ?? 0) >= MAX_LOGIN_FAILURES;
}

export async function recordLoginFailure(email: string, q: Queryable = db, now = new Date()): Promise<void> {
  const address = normalize(email);
  // Rows older than the window no longer count; dropping them keeps the table small.
  const expired = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  await q.delete(loginAttempts).where(and(eq(loginAttempts.email, address), lte(loginAttempts.createdAt, expired)));
  await q.insert(loginAttempts).values({ email: address, createdAt: now });
}

/** A successful sign-in forgives earlier mistakes. */
export async function clearLoginFailures(email: string, q: Queryable = db): Promise<void> {
  await q.delete(loginAttempts).where(eq(loginAttempts.email, normalize(email)));
}
