import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, rowsOf } from "@/db/client";
import { apiKeys, organizations, rateLimitCounters, users } from "@/db/schema";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { checkRateLimit } from "@/lib/http/rate-limit";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { admittedHits, hitSequenceExists, plantHits, RATE_LIMIT_SLOTS } from "../support/rate-limit";

const HITS = 200;
/** The subject's lock row (rate_limit_hit), beside its slots. */
const LOCK_SLOT = -1;
/** Hits of one transaction: it keeps every row version it writes from pruning, as an old snapshot would. */
const UNPRUNABLE_HITS = 1_000;

async function counterTableWrites(): Promise<{ inserts: number; updates: number }> {
  const [row] = rowsOf<{ inserts: string | number; updates: string | number }>(
    await db.execute(sql`select n_tup_ins as inserts, n_tup_upd as updates
                           from pg_stat_user_tables where relname = 'rate_limit_counters'`),
  );
  return { inserts: Number(row!.inserts), updates: Number(row!.updates) };
}

async function counterTablePages(): Promise<number> {
  const [row] = rowsOf<{ pages: number }>(
    await db.execute(sql`select (pg_relation_size('rate_limit_counters') / current_setting('block_size')::int)::int as pages`),
  );
  return row!.pages;
}

async function slotsOf(subjectId: string) {
  return (await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.subjectId, subjectId))).filter(
    (row) => row.slot !== LOCK_SLOT,
  );
}

describe("rate-limit counters", () => {
  useTestDatabase();

  it("count a subject's hits in its own unlogged sequence, and write a row only for the first hit of each second", async () => {
    const tenant = await createTenant();
    const before = await counterTableWrites();
    for (let i = 0; i < HITS; i++) await checkRateLimit(tenant.apiKeyId, HITS);
    expect((await checkRateLimit(tenant.apiKeyId, HITS)).allowed).toBe(false);

    expect(await admittedHits(tenant.apiKeyId)).toBe(HITS);
    const [sequence] = rowsOf<{ relpersistence: string }>(
      await db.execute(sql`select relpersistence from pg_class where oid = to_regclass(rate_limit_sequence(${tenant.apiKeyId}::uuid))`),
    );
    expect(sequence!.relpersistence).toBe("u");
    const slots = await slotsOf(tenant.apiKeyId);
    for (const slot of slots) expect(slot.slot).toBe(slot.bucket % RATE_LIMIT_SLOTS);
    // One slot per second the hits took; the first holds the count before them.
    expect(slots.length).toBe(new Set(slots.map((slot) => slot.bucket)).size);
    expect(Math.min(...slots.map((slot) => slot.hitsBefore))).toBe(0);
    // Statistics reach pg_stat_user_tables when a backend goes idle (at most once a second).
    const inserts = slots.length + 1;
    let after = await counterTableWrites();
    for (let waited = 0; after.inserts - before.inserts < inserts && waited < 5000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await counterTableWrites();
    }
    expect(after.inserts - before.inserts).toBe(inserts);
    expect(after.updates - before.updates).toBe(0);
  });

  it("reuse the row of the second a minute back, so a subject never has more than 61 of them", async () => {
    const subjectId = randomUUID();
    expect((await checkRateLimit(subjectId, 1_000)).allowed).toBe(true);
    await db.delete(rateLimitCounters).where(eq(rateLimitCounters.subjectId, subjectId));
    const expiredSecond = Math.floor(Date.now() / 1000) - RATE_LIMIT_SLOTS;
    // 61 expired seconds of 5 hits each, oldest first, then the sequence past them.
    await db.insert(rateLimitCounters).values(
      Array.from({ length: RATE_LIMIT_SLOTS }, (_, i) => {
        const bucket = expiredSecond - (RATE_LIMIT_SLOTS - 1) + i;
        return { subjectId, bucket, slot: bucket % RATE_LIMIT_SLOTS, hitsBefore: 1 + 5 * i };
      }),
    );
    await db.execute(sql`select setval(to_regclass(rate_limit_sequence(${subjectId}::uuid)), ${1 + 5 * RATE_LIMIT_SLOTS})`);

    const hit = await checkRateLimit(subjectId, 5);
    expect(hit).toMatchObject({ allowed: true, remaining: 4 });
    const slots = await slotsOf(subjectId);
    expect(slots).toHaveLength(RATE_LIMIT_SLOTS);
    expect(slots.filter((row) => row.bucket > expiredSecond)).toMatchObject([{ hitsBefore: 1 + 5 * RATE_LIMIT_SLOTS }]);
    expect(await admittedHits(subjectId)).toBe(2 + 5 * RATE_LIMIT_SLOTS);
  });

  it("reset at the end of the earliest second whose expiry brings the count below the limit", async () => {
    const subjectId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const plant = () => plantHits(subjectId, [{ secondsAgo: 50, hits: 3 }, { secondsAgo: 10, hits: 2 }]);
    // Both inside the window: 5 hits, so a limit of 7 lets this one through with one left.
    await plant();
    expect(await checkRateLimit(subjectId, 7)).toMatchObject({ allowed: true, remaining: 1 });
    // At a limit of 4, the 3 hits of 50 s ago expiring bring 5 down to 2: the window frees up then.
    await plant();
    const atFour = await checkRateLimit(subjectId, 4);
    expect(atFour).toMatchObject({ allowed: false, remaining: 0 });
    expect([now - 50 + 61, now - 49 + 61]).toContain(atFour.resetAt);
    // At a limit of 2, only the expiry of the 2 hits of 10 s ago does.
    await plant();
    const atTwo = await checkRateLimit(subjectId, 2);
    expect(atTwo).toMatchObject({ allowed: false, remaining: 0 });
    expect([now - 10 + 61, now - 9 + 61]).toContain(atTwo.resetAt);
  });

  it(`keep the table at one page through ${UNPRUNABLE_HITS} hits that nothing may prune (no bloat)`, async () => {
    // A transaction keeps every row version it writes from pruning until it ends, as another session's old
    // snapshot (an export, an ANALYZE) keeps those of every hit meanwhile. A row rewritten per hit spilled
    // over 100 versions a page to new pages; a hit that writes no row leaves nothing to prune.
    const subjectId = randomUUID();
    await db.transaction(async (tx) => {
      for (let i = 0; i < UNPRUNABLE_HITS; i++) {
        await tx.execute(sql`select allowed from rate_limit_hit(${subjectId}::uuid, ${UNPRUNABLE_HITS}::integer)`);
      }
    });
    expect(await admittedHits(subjectId)).toBe(UNPRUNABLE_HITS);
    expect((await checkRateLimit(subjectId, UNPRUNABLE_HITS)).allowed).toBe(false);
    expect(await counterTablePages()).toBe(1);
  });

  it("go with a deleted user or API key: its rows and its sequence", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    for (const subjectId of [tenant.apiKeyId, tenant.user.id, other.user.id]) await checkRateLimit(subjectId, 10);

    await db.delete(users).where(eq(users.id, tenant.user.id));
    expect(await slotsOf(tenant.user.id)).toHaveLength(0);
    expect(await hitSequenceExists(tenant.user.id)).toBe(false);
    expect(await hitSequenceExists(tenant.apiKeyId)).toBe(true);

    await db.delete(organizations).where(eq(organizations.id, tenant.organization.id));
    expect(await slotsOf(tenant.apiKeyId)).toHaveLength(0);
    expect(await hitSequenceExists(tenant.apiKeyId)).toBe(false);
    // Another subject's counters stay.
    expect(await admittedHits(other.user.id)).toBe(1);
    expect(await slotsOf(other.user.id)).toHaveLength(1);
  });

  it("go with a revoked API key, which no request authenticates as again", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    for (const subjectId of [tenant.apiKeyId, other.apiKeyId]) await checkRateLimit(subjectId, 10);

    expect(await revokeApiKey(tenant.organization.id, tenant.apiKeyId)).not.toBeNull();
    expect(await slotsOf(tenant.apiKeyId)).toHaveLength(0);
    expect(await hitSequenceExists(tenant.apiKeyId)).toBe(false);
    // Other updates of a live key (rate_limit_hit marks it used) keep its counters.
    await db.update(apiKeys).set({ lastUsedAt: new Date(), name: "renamed" }).where(eq(apiKeys.id, other.apiKeyId));
    expect(await admittedHits(other.apiKeyId)).toBe(1);
    expect(await slotsOf(other.apiKeyId)).toHaveLength(1);
  });
});
