import { and, eq, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { sha256Hex } from "@/lib/auth/secrets";
import { ApiError } from "./errors";
import type { Reply } from "./route";

const WINDOW = sql`interval '24 hours'`;
/**
 * A claim with no stored response after this long belongs to a request that died (a crashed process):
 * no API request runs anywhere near a minute, so a retry may take the key over instead of getting 409 for a day.
 */
const ABANDONED_AFTER = sql`interval '60 seconds'`;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

interface IdempotentRequest {
  organizationId: string;
  key: string;
  /** What makes two requests "the same": method, path and raw body. */
  fingerprint: string[];
}

/**
 * Runs a POST once per Idempotency-Key within 24 hours. The key is claimed before the work starts,
 * so a concurrent duplicate gets 409 instead of doing the work twice; work that failed frees the key,
 * work that succeeded never does (even if storing its response fails, a retry must not redo it).
 */
export async function withIdempotency(
  request: IdempotentRequest,
  run: () => Promise<Reply>,
): Promise<Reply & { replayed: boolean }> {
  if (!KEY_FORMAT.test(request.key)) {
    throw new ApiError("validation_failed", "Invalid Idempotency-Key header", [
      { path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" },
    ]);
  }
  const requestHash = sha256Hex(request.fingerprint.join("\n"));
  const where = and(eq(idempotencyKeys.organizationId, request.organizationId), eq(idempotencyKeys.key, request.key));
  // One statement claims a free key, an expired one, or one abandoned by a request that never finished.
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ organizationId: request.organizationId, key: request.key, requestHash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.organizationId, idempotencyKeys.key],
      set: { requestHash, responseStatus: null, responseBody: null, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - ${WINDOW}
        or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.createdAt} < now() - ${ABANDONED_AFTER})`,
    })
    .returning({ key: idempotencyKeys.key });

  if (claimed.length === 0) {
    const [existing] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) throw new ApiError("conflict", "A request with this Idempotency-Key is in progress; retry shortly");
    if (existing.requestHash !== requestHash) {
      throw new ApiError("conflict", "This Idempotency-Key was already used with a different request");
    }
    if (existing.responseStatus === null) {
      throw new ApiError("conflict", "A request with this Idempotency-Key is still in progress");
    }
    return {
      status: existing.responseStatus,
      body: existing.responseBody === null ? undefined : JSON.parse(existing.responseBody),
      replayed: true,
    };
  }

  let reply: Reply;
  try {
    reply = await run();
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
  await db
    .update(idempotencyKeys)
    .set({
      responseStatus: reply.status,
      responseBody: reply.body === undefined ? null : JSON.stringify(reply.body),
    })
    .where(where);
  return { ...reply, replayed: false };
}

// Small enough that a backlog (say, after a day without the cron) never holds the embedded database long.
const PRUNE_BATCH = 5_000;

/**
 * Deletes expired keys in batches and returns how many. An expired key is reclaimed by its next use anyway,
 * so deleting it changes no answer; it keeps the table to a day of requests.
 */
export async function pruneExpiredIdempotencyKeys(): Promise<number> {
  const expired = lt(idempotencyKeys.createdAt, sql`now() - ${WINDOW}`);
  let pruned = 0;
  for (;;) {
    const batch = db
      .select({ organizationId: idempotencyKeys.organizationId, key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(expired)
      .limit(PRUNE_BATCH);
    const deleted = await db
      .delete(idempotencyKeys)
      .where(sql`(${idempotencyKeys.organizationId}, ${idempotencyKeys.key}) in (${batch})`)
      .returning({ key: idempotencyKeys.key });
    pruned += deleted.length;
    if (deleted.length < PRUNE_BATCH) return pruned;
  }
}
