/**
 * Receiver-side verification of webhook deliveries. Self-contained (node:crypto only) so a receiver can
 * copy this file as is. Pass the raw request body exactly as received, before any JSON parsing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** The spec's tolerance: a timestamp further than this from now is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Largest accepted distance between now and X-Webhook-Timestamp, in seconds. */
  toleranceSeconds?: number;
  /** Current unix time in seconds (tests). */
  now?: number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`, the value of X-Webhook-Signature. */
export function webhookSignature(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  const hmac = createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
  return `v1=${hmac}`;
}

/**
 * Checks X-Webhook-Timestamp against the tolerance window and X-Webhook-Signature in constant time,
 * and only then parses the body. Returns the parsed event; throws WebhookVerificationError otherwise.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Buffer,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): T {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const timestampText = header(headers, "x-webhook-timestamp");
  const signature = header(headers, "x-webhook-signature");
  if (!timestampText || !signature) throw new WebhookVerificationError("Missing X-Webhook-Timestamp or X-Webhook-Signature header");
  if (!/^\d+$/.test(timestampText)) throw new WebhookVerificationError("X-Webhook-Timestamp is not a unix time in seconds");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestampText)) > tolerance) {
    throw new WebhookVerificationError(`X-Webhook-Timestamp is outside the ${tolerance} s tolerance window`);
  }
  const expected = Buffer.from(webhookSignature(secret, timestampText, rawBody));
  // A header may carry several signatures (e.g. during a secret rotation); any valid one suffices.
  const valid = signature
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((candidate) => {
      const actual = Buffer.from(candidate);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    });
  if (!valid) throw new WebhookVerificationError("X-Webhook-Signature does not match the body");
  const text = typeof rawBody === "string" ? rawBody : rawBody.toString("utf8");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new WebhookVerificationError("Body is not valid JSON");
  }
}
