import { and, eq, lt, sql } from "drizzle-orm";
import { db } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { sha256Hex } from "@/lib/auth/secrets";
import { ApiError } from "./errors";
import type { Reply } from "./route";

const WINDOW = sql`interval '24 hours'`;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

interface IdempotentRequest {
  organizationId: string;
  key: string;
  /** What makes two requests "the same": method, path and raw body. */
  fingerprint: string[];
}

/**
 * Runs a POST once per Idempotency-Key within 24 hours. The key is claimed before the work starts,
 * so a concurrent duplicate gets 409 instead of doing the work twice; a failed attempt frees the key.
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
  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, sql`now() - ${WINDOW}`)));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ organizationId: request.organizationId, key: request.key, requestHash })
    .onConflictDoNothing()
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

  try {
    const reply = await run();
    await db
      .update(idempotencyKeys)
      .set({
        responseStatus: reply.status,
        responseBody: reply.body === undefined ? null : JSON.stringify(reply.body),
      })
      .where(where);
    return { ...reply, replayed: false };
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
}
