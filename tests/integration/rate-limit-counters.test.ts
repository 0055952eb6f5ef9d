import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { checkRateLimit } from "@/lib/http/rate-limit";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

const HITS = 200;
const SLOTS = 61;
/** The subject's lock row (rate_limit_hit), beside its slots. */
const LOCK_SLOT = -1;
/** Row versions of one subject that nothing may prune yet: more than 16 queued callers ever keep. */
const UNPRUNABLE_VERSIONS = 100;

async function counterTableStats(): Promise<{ updates: number; hotUpdates: number }> {
  const [row] = rowsOf<{ updates: string | number; hot_updates: string | number }>(
    await db.execute(sql`select n_tup_upd as updates, n_tup_hot_upd as hot_updates
                           from pg_stat_user_tables where relname = 'rate_limit_counters'`),
  );
  return { updates: Number(row!.updates), hotUpdates: Number(row!.hot_updates) };
}

async function counterTablePages(): Promise<number> {
  const [row] = rowsOf<{ pages: number }>(
    await db.execute(sql`select (pg_relation_size('rate_limit_counters') / current_setting('block_size')::int)::int as pages`),
  );
  return row!.pages;
}

describe("rate-limit counters", () => {
  useTestDatabase();

  it("keep a subject's hits in small unlogged per-second rows that each hit rewrites in place (HOT updates)", async () => {
    const [table] = rowsOf<{ relpersistence: string; reloptions: string[] | null }>(
      await db.execute(sql`select relpersistence, reloptions from pg_class where relname = 'rate_limit_counters'`),
    );
    expect(table!.relpersistence).toBe("u");
    expect(table!.reloptions).toContain("fillfactor=50");

    const tenant = await createTenant();
    const before = await counterTableStats();
    for (let i = 0; i < HITS; i++) await checkRateLimit(tenant.apiKeyId, HITS);
    expect((await checkRateLimit(tenant.apiKeyId, HITS)).allowed).toBe(false);

    const rows = (await db.select().from(rateLimitCounters)).filter((row) => row.slot !== LOCK_SLOT);
    expect(rows.reduce((sum, row) => sum + row.hits, 0)).toBe(HITS);
    for (const row of rows) expect(row.slot).toBe(row.bucket % SLOTS);
    // Statistics reach pg_stat_user_tables when a backend goes idle (at most once a second).
    let after = await counterTableStats();
    const updates = HITS - rows.length;
    for (let waited = 0; after.updates - before.updates < updates && waited < 5000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await counterTableStats();
    }
    expect(after.updates - before.updates).toBe(updates);
    // A page holds over 100 versions of a row, so even with pruning held off by another session's open
    // transaction at most one update in 100 leaves the page.
    expect(after.hotUpdates - before.hotUpdates).toBeGreaterThanOrEqual(updates - Math.ceil(HITS / 100));
  });

  it("reuse the row of the second a minute back, so a subject never has more than 61 of them", async () => {
    const subjectId = randomUUID();
    const expiredSecond = Math.floor(Date.now() / 1000) - SLOTS;
    await db.insert(rateLimitCounters).values(
      Array.from({ length: SLOTS }, (_, i) => ({ subjectId, bucket: expiredSecond - i, slot: (expiredSecond - i) % SLOTS, hits: 5 })),
    );
    const hit = await checkRateLimit(subjectId, 5);
    expect(hit).toMatchObject({ allowed: true, remaining: 4 });
    const rows = (await db.select().from(rateLimitCounters)).filter((row) => row.slot !== LOCK_SLOT);
    expect(rows).toHaveLength(SLOTS);
    expect(rows.filter((row) => row.bucket > expiredSecond)).toMatchObject([{ hits: 1 }]);
  });

  it("fit the row versions of a burst that pruning cannot reclaim yet in one page (no bloat)", async () => {
    // Callers queued behind a subject's lock hold snapshots that keep the versions written since from pruning;
    // one transaction keeps all of its own, so a burst of its hits shows where those versions go.
    const subjectId = randomUUID();
    // The burst starts a second afresh so that it stays in one second: a new second's row is an insert, which
    // fillfactor 50 puts on a new page once the page is half full, as it should (the other half is for versions).
    await new Promise((resolve) => setTimeout(resolve, 1_010 - (Date.now() % 1_000)));
    await db.transaction(async (tx) => {
      for (let i = 0; i < UNPRUNABLE_VERSIONS; i++) {
        await tx.execute(sql`select allowed from rate_limit_hit(${subjectId}::uuid, ${UNPRUNABLE_VERSIONS}::integer)`);
      }
    });
    const slots = (await db.select().from(rateLimitCounters)).filter((row) => row.subjectId === subjectId && row.slot !== LOCK_SLOT);
    expect(slots).toHaveLength(1);
    expect(await counterTablePages()).toBe(1);
  });
});
