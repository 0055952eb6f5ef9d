import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { attemptRows, deliveryRow } from "../support/webhooks";

const SIGNING_KEY = `signkey-test-${"ab".repeat(32)}`;

/** JSON with keys sorted at every level: the form the SDK signs and verifies. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What the Inngest executor sends: the body signed as `t=<ts>&s=<hex HMAC(key without prefix, body + ts)>`. */
function executorRequest(fnId: string, body: unknown, signingKey = SIGNING_KEY): Request {
  const text = canonicalJson(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", signingKey.replace(/^signkey-\w+-/, "")).update(text).update(ts).digest("hex");
  return new Request(`http://127.0.0.1/api/inngest?fnId=${fnId}&stepId=step`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Inngest-Signature": `t=${ts}&s=${signature}` },
    body: text,
  });
}

/**
 * The real `serve()` route with Inngest keys set, driven the way the Inngest executor drives it, so a
 * change in the SDK's protocol shows up here rather than in production.
 */
describe("app/api/inngest with Inngest keys (real serve handler)", () => {
  useTestDatabase();
  const receiver = useReceivers();
  let route: NonNullable<ReturnType<typeof import("@/inngest/serve").servedFunctions>>;

  beforeAll(async () => {
    vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
    vi.stubEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
    // Anything that tried to reach Inngest would fail fast here instead of leaving the machine.
    vi.stubEnv("INNGEST_BASE_URL", "http://127.0.0.1:9");
    vi.resetModules();
    // app/api/inngest/route.ts exports exactly these handlers (its auth imports do not load under vitest).
    const served = (await import("@/inngest/serve")).servedFunctions();
    if (!served) throw new Error("Inngest keys did not switch the app to served mode");
    route = served;
  });

  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("refuses an unsigned or wrongly signed execution request", async () => {
    const body = { version: 2, event: { name: "webhook/delivery.created", data: {} }, events: [], steps: {}, ctx: { run_id: "r" } };
    const unsigned = new Request("http://127.0.0.1/api/inngest?fnId=ticketing-deliver-webhook&stepId=step", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect((await route.POST(unsigned as never, undefined)).status).toBe(401);
    const forged = executorRequest("ticketing-deliver-webhook", body, `signkey-test-${"cd".repeat(32)}`);
    expect((await route.POST(forged as never, undefined)).status).toBe(401);
  });

  it("runs the delivery function step by step for signed requests", async () => {
    const { createIntegration } = await import("@/lib/webhooks/integrations");
    const { db } = await import("@/db/client");
    const { webhookDeliveries } = await import("@/db/schema");
    const server = await receiver(() => ({ status: 200 }));
    const { organization } = await createTenant();
    const integration = await createIntegration({ organizationId: organization.id, url: server.url });
    const [delivery] = await db
      .insert(webhookDeliveries)
      .values({
        organizationId: organization.id,
        integrationId: fromPublicId("integration", integration.id)!,
        eventType: "OrderCompleted",
        payload: '{"uuid":"served"}',
      })
      .returning();
    const event = { name: "webhook/delivery.created", data: { deliveryId: delivery!.id }, id: "evt-1", ts: Date.now() };
    const steps: Record<string, { type: "data"; data: unknown }> = {};
    const stack: string[] = [];
    const ops: string[] = [];
    let result: unknown;
    for (let request = 0; request < 6 && result === undefined; request++) {
      const response = await route.POST(
        executorRequest("ticketing-deliver-webhook", {
          version: 2,
          event,
          events: [event],
          steps,
          ctx: { run_id: "run-1", attempt: 0, stack: { stack, current: stack.length } },
        }) as never,
        undefined,
      );
      const text = await response.text();
      expect([200, 206], text).toContain(response.status);
      if (response.status === 200) {
        result = JSON.parse(text);
      } else {
        for (const op of JSON.parse(text) as { id: string; op: string; name?: string; displayName?: string; data: unknown }[]) {
          expect(op.op).toBe("StepRun");
          ops.push(op.displayName ?? op.name ?? op.id);
          steps[op.id] = { type: "data", data: op.data };
          stack.push(op.id);
        }
      }
    }
    expect(ops).toEqual(["attempt"]);
    expect(result).toEqual({ status: "Success", attemptCount: 1, done: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["x-webhook-delivery-id"]).toBe(toPublicId("delivery", delivery!.id));
    expect((await deliveryRow(delivery!.id)).status).toBe("Success");
    expect(await attemptRows(delivery!.id)).toHaveLength(1);
  });
});
