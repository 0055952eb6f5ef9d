import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { nominalBackoffMs } from "@/lib/webhooks/attempt";
import { verifyWebhook, webhookSignature } from "@/lib/webhooks/verify";

const secret = "whsec_test-secret";
const body = '{"uuid":"0f9b","total_price":25000,"name":"Åsa"}';

function signedHeaders(ts: number, raw = body, key = secret) {
  return { "X-Webhook-Timestamp": String(ts), "X-Webhook-Signature": webhookSignature(key, ts, raw) };
}

describe("verifyWebhook", () => {
  const now = 1_800_000_000;

  it("returns the parsed event for a valid signature within the window", () => {
    expect(verifyWebhook(body, signedHeaders(now - 299), secret, { now })).toEqual(JSON.parse(body));
    expect(verifyWebhook(Buffer.from(body), new Headers(signedHeaders(now)), secret, { now })).toEqual(JSON.parse(body));
  });

  it("signs <timestamp>.<raw body> with HMAC-SHA256 as v1=<hex>", () => {
    const expected = `v1=${createHmac("sha256", "whsec_k").update("1700000000.{\"a\":1}").digest("hex")}`;
    expect(webhookSignature("whsec_k", 1_700_000_000, '{"a":1}')).toBe(expected);
    expect(webhookSignature("whsec_k", "1700000000", Buffer.from('{"a":1}'))).toBe(expected);
  });

  it("rejects timestamps outside the tolerance, before looking at the signature", () => {
    expect(() => verifyWebhook(body, signedHeaders(now - 301), secret, { now })).toThrow(/tolerance/);
    expect(() => verifyWebhook(body, signedHeaders(now + 301), secret, { now })).toThrow(/tolerance/);
    expect(() => verifyWebhook(body, signedHeaders(now - 30), secret, { now, toleranceSeconds: 10 })).toThrow(/tolerance/);
  });

  it("rejects a changed body, a wrong secret, a missing header or a malformed timestamp", () => {
    expect(() => verifyWebhook(body.replace("25000", "1"), signedHeaders(now), secret, { now })).toThrow(/signature/i);
    expect(() => verifyWebhook(body, signedHeaders(now, body, "whsec_other"), secret, { now })).toThrow(/signature/i);
    expect(() => verifyWebhook(body, { "X-Webhook-Timestamp": String(now) }, secret, { now })).toThrow(/Missing/);
    expect(() => verifyWebhook(body, { ...signedHeaders(now), "X-Webhook-Timestamp": "12abc" }, secret, { now })).toThrow(/unix time/);
  });

  it("verifies before parsing: an unsigned non-JSON body fails on the signature, a signed one on JSON", () => {
    expect(() => verifyWebhook("not json", signedHeaders(now), secret, { now })).toThrow(/signature/i);
    expect(() => verifyWebhook("not json", signedHeaders(now, "not json"), secret, { now })).toThrow(/JSON/);
  });
});

describe("nominal backoff", () => {
  it("is 5 s doubling per attempt, capped at 5 minutes, within ±15 %", () => {
    const nominal = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000];
    nominal.forEach((base, i) => {
      expect(nominalBackoffMs(i + 1, () => 0)).toBe(base * 0.85);
      expect(nominalBackoffMs(i + 1, () => 1)).toBe(base * 1.15);
      expect(nominalBackoffMs(i + 1, () => 0.5)).toBe(base);
    });
  });
});
