import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";
import { useReceivers } from "../support/receiver";
import { executorRequest, SIGNING_KEY } from "../support/inngest-executor";
import { attemptRows, deliveryRow } from "../support/webhooks";

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
    expect(ops).toEqual(["attempt-1"]);
    expect(result).toEqual({ status: "Success", attemptCount: 1, done: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["x-webhook-delivery-id"]).toBe(toPublicId("delivery", delivery!.id));
    expect((await deliveryRow(delivery!.id)).status).toBe("Success");
    expect(await attemptRows(delivery!.id)).toHaveLength(1);
  });
});
