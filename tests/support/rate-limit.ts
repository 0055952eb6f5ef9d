import { eq, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";

/** Slots per subject (rate_limit_hit): a second reuses the slot of the second 61 s before it. */
export const RATE_LIMIT_SLOTS = 61;

/** Every hit ever admitted for the subject: the value of its hit sequence (0 before its first hit). */
export async function admittedHits(subjectId: string): Promise<number> {
  const [row] = rowsOf<{ hits: string | number }>(
    await db.execute(sql`select coalesce(pg_sequence_last_value(to_regclass(rate_limit_sequence(${subjectId}::uuid))), 0) as hits`),
  );
  return Number(row!.hits);
}

/** Whether the subject's hit sequence exists. */
export async function hitSequenceExists(subjectId: string): Promise<boolean> {
  const [row] = rowsOf<{ exists: boolean }>(
    await db.execute(sql`select to_regclass(rate_limit_sequence(${subjectId}::uuid)) is not null as exists`),
  );
  return row!.exists;
}

/**
 * Replaces the subject's counters with the hits of the given seconds back (oldest first), as rate_limit_hit would
 * have left them: a slot per second, holding the sequence's value before its hits, and the sequence past them all.
 */
export async function plantHits(subjectId: string, seconds: { secondsAgo: number; hits: number }[]): Promise<void> {
  await db.delete(rateLimitCounters).where(eq(rateLimitCounters.subjectId, subjectId));
  const [row] = rowsOf<{ name: string }>(await db.execute(sql`select rate_limit_sequence(${subjectId}::uuid) as name`));
  await db.execute(sql.raw(`create unlogged sequence if not exists "${row!.name}"`));
  let total = await admittedHits(subjectId);
  const now = Math.floor(Date.now() / 1000);
  for (const { secondsAgo, hits } of seconds) {
    const bucket = now - secondsAgo;
    await db.insert(rateLimitCounters).values({ subjectId, bucket, slot: bucket % RATE_LIMIT_SLOTS, hitsBefore: total });
    total += hits;
  }
  await db.execute(sql`select setval(to_regclass(${row!.name}), ${total}::bigint)`);
}
