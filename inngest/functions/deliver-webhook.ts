import { inngest } from "@/inngest/client";
import { DELIVERY_CREATED_EVENT } from "@/inngest/events";
import { attemptDelivery, type DeliveryProgress } from "@/lib/webhooks/attempt";

/** Enough for one integration to keep up with an on-sale rush (a run holds its slot tens of ms; README). */
export const DELIVERY_RUNS_PER_INTEGRATION = 32;
/** A failing step (the database unreachable) is tried again this often before the run gives up to the sweeper. */
export const DELIVERY_STEP_RETRIES = 3;

/**
 * One run per delivery; each attempt is its own step so Inngest records it. The delivery row holds the
 * state, so a run started again for the same delivery (sweeper, restart) continues from its attempt count.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    triggers: [{ event: DELIVERY_CREATED_EVENT }],
    // Receiver failures are attempts of the delivery, counted in its row, not step failures; these retries
    // cover a step that threw (database error). A crashed run is recovered by the sweeper.
    retries: DELIVERY_STEP_RETRIES,
    // A slow or dead receiver holds at most this many runs (up to 30 s per attempt each); the rest of its
    // deliveries wait their turn while every other integration's deliveries go ahead.
    concurrency: { key: "event.data.integrationId", limit: DELIVERY_RUNS_PER_INTEGRATION },
    // A re-announcement while the delivery's run is queued, sleeping or attempting starts no second run.
    singleton: { key: "event.data.deliveryId", mode: "skip" },
  },
  async ({ event, step }) => {
    const deliveryId = (event.data as { deliveryId: string }).deliveryId;
    // The attempt number comes from the row, not from the run, so a step id cannot carry it; Inngest
    // numbers repeated ids itself. Each step's output shows the attempt it made.
    let progress: DeliveryProgress;
    for (;;) {
      progress = await step.run("attempt", () => attemptDelivery(deliveryId));
      if (progress.done) return progress;
      // Integrations on the nominal retry schedule wait durably: a restart during the wait loses nothing.
      if (progress.retryAt) await step.sleepUntil("wait-for-retry", progress.retryAt);
    }
  },
);
