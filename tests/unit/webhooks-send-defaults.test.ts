import { describe, expect, it, vi } from "vitest";
import { deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { inngest } from "@/inngest/client";
import { InProcessDriver } from "@/inngest/driver";
import { attemptDelivery, type AttemptOptions } from "@/lib/webhooks/attempt";
import { DELIVERY_CREATED_EVENT } from "@/inngest/events";
import { SEND_DEFAULTS } from "@/lib/webhooks/send";

// The attempt itself needs a database; here only what the delivery function asks of it matters.
vi.mock("@/lib/webhooks/attempt", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/webhooks/attempt")>()),
  attemptDelivery: vi.fn(async () => ({ status: "Success", attemptCount: 1, done: true })),
}));

describe("webhook send bounds", () => {
  it("default to spec 6: 5 s to connect, 30 s for the whole attempt", () => {
    expect(SEND_DEFAULTS).toEqual({ connectTimeoutMs: 5_000, totalTimeoutMs: 30_000 });
  });

  it("are what deliver-webhook attempts with, with the target rules of the environment", async () => {
    new InProcessDriver(inngest, [deliverWebhook]).dispatch([
      { name: DELIVERY_CREATED_EVENT, data: { deliveryId: "delivery-1", integrationId: "integration-1" } },
    ]);
    await vi.waitFor(() => expect(attemptDelivery).toHaveBeenCalledTimes(1));
    const [deliveryId, options = {}] = vi.mocked(attemptDelivery).mock.calls[0]! as [string, AttemptOptions?];
    expect(deliveryId).toBe("delivery-1");
    // No bounds of its own, so sendWebhook applies SEND_DEFAULTS; no target rule of its own, so the environment's.
    expect(options).not.toHaveProperty("connectTimeoutMs");
    expect(options).not.toHaveProperty("totalTimeoutMs");
    expect(options).not.toHaveProperty("allowPrivateTargets");
  });
});
