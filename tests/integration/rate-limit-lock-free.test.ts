import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { checkRateLimit } from "@/lib/http/rate-limit";
import { usePostgresDatabasePerTest } from "../support/database";
import { createTenant } from "../support/fixtures";
import { admittedHits, hitSequenceExists } from "../support/rate-limit";

/** Long enough for a hit that waits for a lock to show it; a hit that takes none answers in milliseconds. */
const WAIT_MS = 1_000;
/** Far above max_connections (100), so the first hits of a subject take rate_limit_hit's fast path. */
const HIGH_LIMIT = 1_000;
/** Within max_connections of the count: every hit takes the locked path. */
const LOW_LIMIT = 50;

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

const currentSecond = () => Math.floor(Date.now() / 1_000);

/**
 * The fast path needs the subject's slot of the current second, which a case's first hit writes: so `run` starts
 * early in a second, and runs again with new subjects (three times at most) when what it measured (up to the moment
 * it reports through `measured`) did not happen in that one second.
 */
async function inOneSecond<T>(run: (measured: () => void) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
    const second = currentSecond();
    let measuredIn = second;
    const result = await run(() => (measuredIn = currentSecond()));
    if (measuredIn === second || attempt === 3) return result;
  }
}

/*
 * Two sessions of PostgreSQL (always: PGlite runs one statement at a time, so it cannot show a wait). rate_limit_hit
 * (db/sql/rate-limit-hit.sql) counts a hit well below the limit without the subject's lock, and takes it near the limit.
 */
describe("rate-limit hits below the limit", () => {
  const database = usePostgresDatabasePerTest();

  it("take no lock, while a hit near the limit waits for the session that holds the subject's lock row", async () => {
    const other = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      const seen = await inOneSecond(async (measured) => {
        const subjectId = randomUUID();
        const first = await checkRateLimit(subjectId, HIGH_LIMIT);
        let release = () => {};
        const held = other.begin(async (tx) => {
          await tx`select 1 from rate_limit_counters where subject_id = ${subjectId}::uuid and slot = -1 for update`;
          await new Promise<void>((resolve) => (release = resolve));
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        const fast = checkRateLimit(subjectId, HIGH_LIMIT);
        const fastSettled = await settledWithin(fast, WAIT_MS);
        measured();
        const nearLimit = checkRateLimit(subjectId, LOW_LIMIT);
        const nearLimitSettled = await settledWithin(nearLimit, WAIT_MS);
        release();
        await held;
        return { first, fastSettled, fast: await fast, nearLimitSettled, nearLimit: await nearLimit, admitted: await admittedHits(subjectId) };
      });
      expect(seen.first).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 1 });
      expect(seen.fastSettled).toBe(true);
      expect(seen.fast).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 2 });
      expect(seen.nearLimitSettled).toBe(false);
      expect(seen.nearLimit).toMatchObject({ allowed: true, remaining: LOW_LIMIT - 3 });
      expect(seen.admitted).toBe(3);
    } finally {
      await other.end({ timeout: 5 });
    }
  });

  it("of a key being revoked wait for the revocation and count afresh, instead of failing on its dropped sequence", async () => {
    const other = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      const seen = await inOneSecond(async (measured) => {
        const tenant = await createTenant({ rateLimitPerMinute: HIGH_LIMIT });
        await checkRateLimit(tenant.apiKeyId, HIGH_LIMIT);
        let release = () => {};
        const revoking = other.begin(async (tx) => {
          // The revoke trigger deletes the key's rows and drops its sequence, which it holds until commit.
          await tx`update api_keys set revoked_at = now() where id = ${tenant.apiKeyId}::uuid`;
          await new Promise<void>((resolve) => (release = resolve));
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        // Its snapshot still shows the rows and the sequence: the fast path reaches the sequence and waits for its lock.
        const hit = checkRateLimit(tenant.apiKeyId, HIGH_LIMIT);
        await new Promise((resolve) => setTimeout(resolve, 50));
        measured();
        const hitSettled = await settledWithin(hit, WAIT_MS);
        release();
        await revoking;
        return {
          hitSettled,
          hit: await hit,
          sequence: await hitSequenceExists(tenant.apiKeyId),
          admitted: await admittedHits(tenant.apiKeyId),
        };
      });
      expect(seen.hitSettled).toBe(false);
      expect(seen.hit).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 1 });
      expect(seen.sequence).toBe(true);
      expect(seen.admitted).toBe(1);
    } finally {
      await other.end({ timeout: 5 });
    }
  });
});
