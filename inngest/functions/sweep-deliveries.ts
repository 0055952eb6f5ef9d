import { inngest } from "@/inngest/client";
import { deliveryCreatedEvent } from "@/inngest/events";
import { deliveryStates, findStalledDeliveries } from "@/lib/webhooks/delivery-queue";
import { withIntegrationHealth } from "@/lib/webhooks/failing-integrations";

/** A delivery still stalled after this long is announced under a new event id (see DeliveryState.round). */
export const SWEEP_ROUND_MS = 10 * 60_000;

/**
 * Re-announces deliveries left unfinished too long: a lost send or a crashed run loses nothing. A delivery
 * whose run is alive (queued, sleeping or attempting) starts no second one: its event id repeats while its
 * row is unchanged, and deliver-webhook is a singleton per delivery.
 */
export const sweepDeliveries = inngest.createFunction(
  { id: "sweep-deliveries", triggers: [{ cron: "* * * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => {
    const states = await step.run("find-stalled", async () => {
      const round = Math.floor(Date.now() / SWEEP_ROUND_MS);
      return (await withIntegrationHealth(deliveryStates(await findStalledDeliveries()))).map((state) => ({ ...state, round }));
    });
    if (states.length) await step.sendEvent("announce", states.map(deliveryCreatedEvent));
    return { announced: states.length };
  },
);
