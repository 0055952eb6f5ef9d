import { inngest } from "@/inngest/client";
import { findStalledDeliveries } from "@/lib/webhooks/deliveries";
import { announceDeliveries } from "@/lib/webhooks/outbox";

/** Re-announces deliveries left unfinished too long: a lost send or a crashed run loses nothing. */
export const sweepDeliveries = inngest.createFunction(
  { id: "sweep-deliveries", triggers: [{ cron: "* * * * *" }], retries: 0 },
  async ({ step }) => {
    const ids = await step.run("find-stalled", () => findStalledDeliveries());
    if (ids.length) await step.run("announce", () => announceDeliveries(ids));
    return { announced: ids.length };
  },
);
