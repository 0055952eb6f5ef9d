import { z } from "zod";
import { DISABLED_REASONS, RETRY_SCHEDULES, WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { MAX_ROTATION_OVERLAP_SECONDS } from "./integrations";

const url = z.string().trim().min(1).max(2000);
const events = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1);
const description = z.string().max(500);

export const createIntegrationSchema = z.strictObject({
  url,
  /** Defaults to OrderCompleted only; OrderRefunded is opt-in. */
  events: events.optional(),
  description: description.optional(),
  retry_schedule: z.enum(RETRY_SCHEDULES).optional(),
});

export const updateIntegrationSchema = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: description.optional(),
  enabled: z.boolean().optional(),
  retry_schedule: z.enum(RETRY_SCHEDULES).optional(),
});

export const rotateSecretSchema = z.strictObject({
  /** Seconds the previous secret keeps signing (second signature); 0 ends it at once. */
  expire_previous_in: z.number().int().min(0).max(MAX_ROTATION_OVERLAP_SECONDS).default(0),
});

export const integrationSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string(),
  enabled: z.boolean(),
  signed: z.boolean(),
  retry_schedule: z.enum(RETRY_SCHEDULES),
  disabled_reason: z.enum(DISABLED_REASONS).optional(),
  disabled_at: z.iso.datetime().optional(),
  failing_since: z.iso
    .datetime()
    .optional()
    .describe(
      "Present while the integration's attempts fail: since its first failed attempt after its last success. Meanwhile its deliveries run a few at a time (each still retried at once), so that a failing receiver does not slow other integrations' deliveries",
    ),
  previous_secret_expires_at: z.iso.datetime().optional(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const integrationWithSecretSchema = integrationSchema.extend({ signing_secret: z.string().optional() });

export const integrationListSchema = z.object({ data: z.array(integrationSchema) });

export const integrationSecretSchema = z.object({
  signing_secret: z.string(),
  previous_signing_secret: z.string().optional(),
  previous_secret_expires_at: z.iso.datetime().optional(),
});

export const recoverSchema = z.strictObject({
  since: z.iso.datetime({ offset: true }),
  until: z.iso.datetime({ offset: true }).optional(),
});

export const recoverySchema = z.object({
  id: z.string().describe("The recovery (rcv_…); each redelivery it queued belongs to it"),
  queued: z.number().int().describe("Redeliveries queued by this call"),
});
