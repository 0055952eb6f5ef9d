import { inngest } from "@/inngest/client";
import { attemptDelivery, type DeliveryProgress } from "@/lib/webhooks/attempt";
import { DELIVERY_CREATED_EVENT } from "@/lib/webhooks/outbox";

export const DELIVERY_RUNS_PER_INTEGRATION = 8;

/**
 * One run per delivery; each attempt is its own step so Inngest records it. The delivery row holds the
 * state, so a run started again for the same delivery (sweeper, restart) continues from its attempt count.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    triggers: [{ event: DELIVERY_CREATED_EVENT }],
    // Retries are attempts of the delivery, counted in its row; a crashed step is recovered by the sweeper.
    retries: 0,
    // A slow or dead receiver holds at most this many runs (up to 30 s per attempt each); the rest of its
    // deliveries wait their turn while every other integration's deliveries go ahead.
    concurrency: { key: "event.data.integrationId", limit: DELIVERY_RUNS_PER_INTEGRATION },
  },
  async ({ event, step }) => {
    const deliveryId = (event.data as { deliveryId: string }).deliveryId;
    // The attempt number comes from the row, not from the run, so a step id cannot carry it; Inngest
    // numbers repeated ids itself. Each step's output shows the attempt it made.
    let progress: DeliveryProgress;
    do {
      progress = await step.run("attempt", () => attemptDelivery(deliveryId));
    } while (!progress.done);
    return progress;
  },
);
