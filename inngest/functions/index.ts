import { deliverWebhook } from "./deliver-webhook";
import { disableFailingWebhooks } from "./disable-failing-webhooks";
import { pruneAuditLogEntries } from "./prune-audit-log";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys";
import { pruneRequestLog } from "./prune-request-log";
import { pruneWebhookDeliveries } from "./prune-webhook-deliveries";
import { sweepDeliveries } from "./sweep-deliveries";

export const functions = [
  deliverWebhook,
  sweepDeliveries,
  pruneIdempotencyKeys,
  disableFailingWebhooks,
  pruneWebhookDeliveries,
  pruneAuditLogEntries,
  pruneRequestLog,
];
