import { inngest } from "@/inngest/client";
import { DELIVERY_CREATED_EVENT } from "@/inngest/events";
import { attemptDelivery, type DeliveryProgress } from "@/lib/webhooks/attempt";

/** Enough for one integration to keep up with an on-sale rush (a run holds its slot tens of ms; README). */
export const DELIVERY_RUNS_PER_INTEGRATION = 32;
/**
 * A failing integration's deliveries run this many at a time (its lane, see deliveryCreatedEvent), each retrying at
 * once as the spec says, so that a receiver that always fails takes a small share of the delivery worker, not its
 * integration's full one, while other integrations' deliveries arrive.
 */
export const FAILING_INTEGRATION_RUNS = 4;
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
    // deliveries wait their turn while every other integration's deliveries go ahead. The narrower lane first: a
    // failing integration's deliveries waiting for their lane hold none of their integration's runs.
    concurrency: [
      { key: "event.data.lane", limit: FAILING_INTEGRATION_RUNS },
      { key: "event.data.integrationId", limit: DELIVERY_RUNS_PER_INTEGRATION },
    ],
    // A re-announcement while the delivery's run is queued, sleeping or attempting starts no second run.
    singleton: { key: "event.data.deliveryId", mode: "skip" },
  },
  async ({ event, step }) => {
    const deliveryId = (event.data as { deliveryId: string }).deliveryId;
    // Step ids count this run's own tries, the same on every replay of the run. The attempt number comes from the
    // row, not from the run (a run started again after a crash goes on from the row's count), so each step's output
    // shows the attempt it made. A repeated id would also work, but the SDK then warns of a parallel-step collision
    // on every execution of a retried delivery.
    let progress: DeliveryProgress;
    for (let tried = 1; ; tried++) {
      progress = await step.run(`attempt-${tried}`, () => attemptDelivery(deliveryId));
      if (progress.done) return progress;
      // Integrations on the nominal retry schedule wait durably: a restart during the wait loses nothing.
      if (progress.retryAt) await step.sleepUntil(`wait-for-retry-${tried}`, progress.retryAt);
    }
  },
);
