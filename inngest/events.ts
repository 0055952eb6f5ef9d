/** Every event the app sends or its functions listen to, and how each is built. */
export const DELIVERY_CREATED_EVENT = "webhook/delivery.created";

export interface DeliveryState {
  deliveryId: string;
  integrationId: string;
  attemptCount: number;
  updatedAt: Date | string;
  /**
   * The sweeper's round, for its re-announcements: a run that ended without touching the row (its integration
   * was paused, its steps kept failing) leaves the state as it was, and Inngest would drop a re-announcement
   * with an id it has seen for 24 hours. Within a round, repeats are still one event.
   */
  round?: number;
  /** Its integration was failing when it was announced (lib/webhooks/failing-integrations.ts). */
  failing?: boolean;
}

/**
 * The event that starts (or restarts) a delivery's run. Its id names the delivery's state, so repeats of
 * one announcement (two sweeps of an unchanged delivery, a send retried) are one event to Inngest's
 * de-duplication, while any change of the row (an attempt, a release after a crash) makes a new one.
 * Its `lane` is the key of deliver-webhook's narrower concurrency limit: the delivery's own (no limit beyond its
 * integration's) unless its integration is failing, when all that integration's deliveries share one lane.
 */
export function deliveryCreatedEvent({ deliveryId, integrationId, attemptCount, updatedAt, round, failing }: DeliveryState) {
  return {
    id: `delivery-${deliveryId}-${attemptCount}-${new Date(updatedAt).getTime()}${round === undefined ? "" : `-r${round}`}`,
    name: DELIVERY_CREATED_EVENT,
    data: { deliveryId, integrationId, lane: failing ? `failing-${integrationId}` : deliveryId },
  };
}
