import "server-only";
import { and, count, eq, gt, lte, sql } from "drizzle-orm";
import { db, type Database } from "@/db/client";
import { loginAttempts } from "@/db/schema";

export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_LOGIN_FAILURES = 5;

// Seeds the per-address advisory lock's key: the only advisory lock the app takes; a seed of its own keeps a future one off its keys.
const LOCK_SEED = 7271;

const normalize = (email: string) => email.trim().toLowerCase();

/**
 * Takes one of the address's password checks for the window, or returns false when they are used up.
 * Counted per address (known or not) so the answer reveals nothing about which addresses exist.
 *
 * The attempt is recorded before the password is checked, and the count and the insert run under a
 * transaction-scoped lock on the address: checking a password takes a while (scrypt), so counting first
 * and recording the failure afterwards let any number of parallel guesses through the same count.
 */
export async function reserveLoginAttempt(email: string, q: Database = db, now = new Date()): Promise<boolean> {
  const address = normalize(email);
  const windowStart = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  return q.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${address}, ${sql.raw(String(LOCK_SEED))}))`);
    // Rows older than the window no longer count; dropping them keeps the table small.
    await tx.delete(loginAttempts).where(and(eq(loginAttempts.email, address), lte(loginAttempts.createdAt, windowStart)));
    // Read committed: this statement's snapshot is taken after the lock, so it sees every earlier holder's row.
    const [row] = await tx
      .select({ attempts: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, address), gt(loginAttempts.createdAt, windowStart)));
    if ((row?.attempts ?? 0) >= MAX_LOGIN_FAILURES) return false;
    await tx.insert(loginAttempts).values({ email: address, createdAt: now });
    return true;
  });
}

/** A successful sign-in forgives earlier mistakes. */
export async function clearLoginFailures(email: string, q: Database = db): Promise<void> {
  await q.delete(loginAttempts).where(eq(loginAttempts.email, normalize(email)));
}

export type ThrottledCheck<T> = { throttled: true } | { throttled: false; user: T | null };

/**
 * Runs `check` (the password check) only if the address has a check left in the window. A failed or
 * crashed check keeps its reserved row, which is then the record of the failure; a success clears them.
 */
export async function throttledCheck<T>(email: string, check: () => Promise<T | null>, q: Database = db): Promise<ThrottledCheck<T>> {
  if (!(await reserveLoginAttempt(email, q))) return { throttled: true };
  const user = await check();
  if (user) await clearLoginFailures(email, q);
  return { throttled: false, user };
}
