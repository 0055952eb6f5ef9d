/** Every event the app sends or its functions listen to, and how each is built. */
export const DELIVERY_CREATED_EVENT = "webhook/delivery.created";

export interface DeliveryState {
  deliveryId: string;
  integrationId: string;
  attemptCount: number;
  updatedAt: Date | string;
}

/**
 * The event that starts (or restarts) a delivery's run. Its id names the delivery's state, so repeats of
 * one announcement (two sweeps of an unchanged delivery, a send retried) are one event to Inngest's
 * de-duplication, while any change of the row (an attempt, a release after a crash) makes a new one.
 */
export function deliveryCreatedEvent({ deliveryId, integrationId, attemptCount, updatedAt }: DeliveryState) {
  return {
    id: `delivery-${deliveryId}-${attemptCount}-${new Date(updatedAt).getTime()}`,
    name: DELIVERY_CREATED_EVENT,
    data: { deliveryId, integrationId },
  };
}
