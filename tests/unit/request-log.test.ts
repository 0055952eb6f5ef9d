import os from "node:os";
import path from "node:path";
import { mkdtempSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dashboardLinkOf, traceIdOf } from "@/lib/dashboard/request-log";
import { parseEnv } from "@/lib/env";
import { loggedBody, MAX_LOGGED_BODY_BYTES, redactSecrets } from "@/lib/request-log/redact";

const HEX32 = "0190f0a1b2c37d4e8f9a0b1c2d3e4f53";

describe("request log", () => {
  it("redacts secret-like field names at any depth, in arrays too, and leaves the rest", () => {
    const body = {
      name: "Anna",
      Password: "p",
      passwd: "p",
      client_secret: "s",
      refresh_token: "t",
      authorization: "a",
      api_key: "k",
      signingKey: "k",
      card_number: "4242",
      cvc: "123",
      order: { customer: { email: "a@b.test", credentials: { user: "x" } }, items: [{ quantity: 2, token: "t" }] },
      payment_method: "card",
    };
    expect(redactSecrets(body)).toEqual({
      name: "Anna",
      Password: "[redacted]",
      passwd: "[redacted]",
      client_secret: "[redacted]",
      refresh_token: "[redacted]",
      authorization: "[redacted]",
      api_key: "[redacted]",
      signingKey: "[redacted]",
      card_number: "[redacted]",
      cvc: "[redacted]",
      order: { customer: { email: "a@b.test", credentials: "[redacted]" }, items: [{ quantity: 2, token: "[redacted]" }] },
      // A value naming a card is not a secret; only field names are.
      payment_method: "card",
    });
  });

  it("cuts a body nested deeper than any real one instead of overflowing the stack", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(loggedBody(deep).text).toContain("[nested too deep]");
  });

  it("keeps bodies up to 10 KB whole and cuts longer ones on a character boundary with a marker", () => {
    const small = { name: "x".repeat(100) };
    expect(loggedBody(small)).toEqual({ text: JSON.stringify(small), truncated: false });
    const large = loggedBody({ name: "€".repeat(10_000) });
    expect(large.truncated).toBe(true);
    const [kept, marker] = large.text.split("…[truncated: ");
    expect(Buffer.byteLength(kept!)).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES);
    expect(kept).not.toContain("\uFFFD");
    expect(marker).toBe(`${Buffer.byteLength(JSON.stringify({ name: "€".repeat(10_000) }))} bytes in all]`);
  });

  it("finds a pasted trace id however it was copied, and nothing else", () => {
    expect(traceIdOf("  5F2C9A0E7B3D41C8A6E2F017 ")).toBe("5f2c9a0e7b3d41c8a6e2f017");
    expect(traceIdOf('"5f2c9a0e7b3d41c8a6e2f017"')).toBe("5f2c9a0e7b3d41c8a6e2f017");
    expect(traceIdOf("5f2c9a0e7b3d41c8a6e2f01")).toBeNull();
    expect(traceIdOf("/v1/orders")).toBeNull();
    expect(traceIdOf(undefined)).toBeNull();
  });

  it("links what a request created to its dashboard page", () => {
    expect(dashboardLinkOf({ order_id: `ord_${HEX32}` })?.href).toBe("/orders/0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f53");
    expect(dashboardLinkOf({ created_resource: `/v1/events/evt_${HEX32}` })?.href).toBe(`/events/evt_${HEX32}`);
    expect(dashboardLinkOf({ created_resource: `/v1/venues/ven_${HEX32}` })?.href).toBe(`/venues/ven_${HEX32}`);
    expect(dashboardLinkOf({ created_resource: `/v1/events/evt_${HEX32}/tickets/tkt_${HEX32}` })?.href).toBe(
      `/events/evt_${HEX32}/ticket-types/tkt_${HEX32}`,
    );
    expect(dashboardLinkOf({ created_resource: `/webhooks/deliveries/dlv_${HEX32}` })?.href).toBe(`/deliveries/dlv_${HEX32}`);
    expect(dashboardLinkOf({})).toBeNull();
  });

  it("is on by default and kept 30 days; both configurable", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "env-test-"));
    expect(parseEnv({ DATA_DIR: dir })).toMatchObject({ REQUEST_LOG_ENABLED: true, REQUEST_LOG_RETENTION_DAYS: 30 });
    expect(parseEnv({ DATA_DIR: dir, REQUEST_LOG_ENABLED: "false", REQUEST_LOG_RETENTION_DAYS: "7" })).toMatchObject({
      REQUEST_LOG_ENABLED: false,
      REQUEST_LOG_RETENTION_DAYS: 7,
    });
    expect(() => parseEnv({ DATA_DIR: dir, REQUEST_LOG_RETENTION_DAYS: "0" })).toThrow(/REQUEST_LOG_RETENTION_DAYS/);
  });
});
