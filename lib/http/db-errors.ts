import { ApiError } from "./errors";

// Connection-level failures from postgres.js, PGlite and the server: the database is away, not the request wrong.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** The SQLSTATE and DETAIL of the database error behind `error` (drizzle wraps the driver's), if there is one. */
export function sqlStateOf(error: unknown): { code: string; detail?: string } | undefined {
  for (const e of causes(error)) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (typeof code === "string") return { code, detail: typeof detail === "string" ? detail : undefined };
  }
  return undefined;
}

/** Maps database errors that are the caller's or the environment's doing to an ApiError; null otherwise. */
export function apiErrorFromDatabase(error: unknown): ApiError | null {
  for (const e of causes(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (UNAVAILABLE_CODES.has(code) || code.startsWith("08")) {
      return new ApiError("service_unavailable", "The database is unavailable; try again shortly", undefined, {
        "Retry-After": "5",
      });
    }
    // Constraints are the final guard (oversell, duplicates); reaching one means a state conflict.
    if (code === "23505") return new ApiError("conflict", "The resource conflicts with an existing one");
    if (code === "23514" || code === "23503") return new ApiError("conflict", "The change conflicts with the current state");
    // 22009: a timestamp whose offset or year PostgreSQL cannot represent (zod accepts offsets up to ±23:59).
    if (code === "22003" || code === "22P02" || code === "22007" || code === "22008" || code === "22009" || code === "22021") {
      return new ApiError("validation_failed", "A value is out of range or malformed");
    }
  }
  return null;
}
