import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { checkRateLimit } from "@/lib/http/rate-limit";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

const HITS = 200;

async function counterTableStats(): Promise<{ updates: number; hotUpdates: number }> {
  const [row] = rowsOf<{ updates: string | number; hot_updates: string | number }>(
    await db.execute(sql`select n_tup_upd as updates, n_tup_hot_upd as hot_updates
                           from pg_stat_user_tables where relname = 'rate_limit_counters'`),
  );
  return { updates: Number(row!.updates), hotUpdates: Number(row!.hot_updates) };
}

describe("rate-limit counters", () => {
  useTestDatabase();

  it("keep one unlogged row per subject that each hit rewrites in place (HOT updates: no bloat)", async () => {
    const [table] = rowsOf<{ relpersistence: string; reloptions: string[] | null }>(
      await db.execute(sql`select relpersistence, reloptions from pg_class where relname = 'rate_limit_counters'`),
    );
    expect(table!.relpersistence).toBe("u");
    expect(table!.reloptions).toContain("fillfactor=10");

    const tenant = await createTenant();
    const before = await counterTableStats();
    for (let i = 0; i < HITS; i++) await checkRateLimit(tenant.apiKeyId, HITS);
    expect((await checkRateLimit(tenant.apiKeyId, HITS)).allowed).toBe(false);

    const [count] = rowsOf<{ rows: number }>(await db.execute(sql`select count(*)::integer as rows from rate_limit_counters`));
    expect(count!.rows).toBe(1);
    // Statistics reach pg_stat_user_tables when a backend goes idle (at most once a second).
    let after = await counterTableStats();
    for (let waited = 0; after.updates - before.updates < HITS && waited < 5000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await counterTableStats();
    }
    expect(after.updates - before.updates).toBe(HITS);
    // A page holds about 24 versions of the row, so even with pruning held off by another session's open
    // transaction at most one update in 24 leaves the page.
    expect(after.hotUpdates - before.hotUpdates).toBeGreaterThanOrEqual(HITS * 0.9);
  });
});
