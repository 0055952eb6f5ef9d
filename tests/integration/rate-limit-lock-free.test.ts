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

/**
 * The fast path needs the subject's slot of the current second, which the second's first hit writes: so each
 * case starts early in a second, with that hit, and is done well before the next.
 */
async function earlyInASecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
}

/*
 * Two sessions of PostgreSQL (always: PGlite runs one statement at a time, so it cannot show a wait). rate_limit_hit
 * (db/sql/rate-limit-hit.sql) counts a hit well below the limit without the subject's lock, and takes it near the limit.
 */
describe("rate-limit hits below the limit", () => {
  const database = usePostgresDatabasePerTest();

  it("take no lock, while a hit near the limit waits for the session that holds the subject's lock row", async () => {
    const subjectId = randomUUID();
    const other = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      await earlyInASecond();
      expect(await checkRateLimit(subjectId, HIGH_LIMIT)).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 1 });
      let release = () => {};
      const held = other.begin(async (tx) => {
        await tx`select 1 from rate_limit_counters where subject_id = ${subjectId}::uuid and slot = -1 for update`;
        await new Promise<void>((resolve) => (release = resolve));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));

      const fast = checkRateLimit(subjectId, HIGH_LIMIT);
      expect(await settledWithin(fast, WAIT_MS)).toBe(true);
      expect(await fast).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 2 });

      const nearLimit = checkRateLimit(subjectId, LOW_LIMIT);
      expect(await settledWithin(nearLimit, WAIT_MS)).toBe(false);
      release();
      await held;
      expect(await nearLimit).toMatchObject({ allowed: true, remaining: LOW_LIMIT - 3 });
      expect(await admittedHits(subjectId)).toBe(3);
    } finally {
      await other.end({ timeout: 5 });
    }
  });

  it("of a key being revoked wait for the revocation and count afresh, instead of failing on its dropped sequence", async () => {
    const tenant = await createTenant({ rateLimitPerMinute: HIGH_LIMIT });
    const other = postgres(database.url(), { max: 1, onnotice: () => {} });
    try {
      await earlyInASecond();
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
      expect(await settledWithin(hit, WAIT_MS)).toBe(false);
      release();
      await revoking;
      expect(await hit).toMatchObject({ allowed: true, remaining: HIGH_LIMIT - 1 });
      expect(await hitSequenceExists(tenant.apiKeyId)).toBe(true);
      expect(await admittedHits(tenant.apiKeyId)).toBe(1);
    } finally {
      await other.end({ timeout: 5 });
    }
  });
});
