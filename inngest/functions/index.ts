import { deliverWebhook } from "./deliver-webhook";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys";
import { sweepDeliveries } from "./sweep-deliveries";

export const functions = [deliverWebhook, sweepDeliveries, pruneIdempotencyKeys];
