"use server";

import { z } from "zod";
import { RETRY_SCHEDULES } from "@/db/schema";
import {
  createIntegrationFormSchema,
  editIntegrationFormSchema,
  integrationIdFormSchema,
  recoverFormSchema,
  rotateSecretFormSchema,
  setEnabledFormSchema,
} from "@/lib/dashboard/integrations";
import { formAction, formStateOfError } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import {
  createIntegration,
  deleteIntegration,
  getIntegrationSecret,
  rotateIntegrationSecret,
  updateIntegration,
} from "@/lib/webhooks/integrations";
import { recoverFailedDeliveries } from "@/lib/webhooks/recovery";
import { sendTestDelivery } from "@/lib/webhooks/test-delivery";

const NOT_FOUND = "This integration was not found";

export interface CreateIntegrationState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: { url: string; events: string[]; description: string };
  created?: { id: string; url: string };
}

export const createIntegrationAction = formAction({
  permission: "integrations",
  schema: createIntegrationFormSchema,
  lists: ["events"],
  unknown: "This form is out of date; reload the page",
  // The URL rules (https only, no credentials, no private targets) are the domain's: shown at the url field.
  keep: (input): CreateIntegrationState => ({
    values: { url: String(input.url ?? ""), events: input.events as string[], description: String(input.description ?? "") },
  }),
  run: async (session, data): Promise<CreateIntegrationState> => {
    const integration = await createIntegration({ organizationId: session.organizationId, ...data });
    return { created: { id: integration.id, url: integration.url } };
  },
  revalidate: () => ["/integrations"],
});

/** The signing secret, fetched only when someone asks to see it. */
export async function revealSecretAction(id: string): Promise<{ secret?: string; error?: string }> {
  const session = await requireSession("integrations");
  const parsed = integrationIdFormSchema.safeParse({ id });
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    return { secret: (await getIntegrationSecret(session.organizationId, parsed.data.id)).signing_secret };
  } catch (error) {
    return formStateOfError(error);
  }
}

export interface RotateSecretState extends FormState {
  /** The new secret, shown at once so it can be copied to the receiver. */
  secret?: string;
  previousExpiresAt?: string;
}

export const rotateSecretAction = formAction({
  permission: "integrations",
  schema: rotateSecretFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id, expire_previous_in }): Promise<RotateSecretState> => {
    const rotated = await rotateIntegrationSecret(session.organizationId, id, expire_previous_in);
    return {
      notice: "Signing secret rotated.",
      secret: rotated.signing_secret,
      previousExpiresAt: rotated.previous_secret_expires_at,
    };
  },
  revalidate: () => ["/integrations"],
});

export const editIntegrationAction = formAction({
  permission: "integrations",
  schema: editIntegrationFormSchema,
  lists: ["events"],
  unknown: NOT_FOUND,
  run: async (session, { id, ...changes }): Promise<FormState> => {
    await updateIntegration(session.organizationId, id, changes);
    return { notice: "Integration saved." };
  },
  revalidate: () => ["/integrations"],
});

export const deleteIntegrationAction = formAction({
  permission: "integrations",
  schema: integrationIdFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id }): Promise<FormState> => {
    await deleteIntegration(session.organizationId, id);
    return { notice: "Integration deleted. Its delivery history stays under Deliveries." };
  },
  revalidate: () => ["/integrations", "/deliveries"],
});

export const setEnabledAction = formAction({
  permission: "integrations",
  schema: setEnabledFormSchema,
  hidden: ["id", "enabled"],
  unknown: NOT_FOUND,
  run: async (session, { id, enabled }): Promise<FormState> => {
    await updateIntegration(session.organizationId, id, { enabled });
    return { notice: enabled ? "Integration enabled." : "Integration disabled." };
  },
  revalidate: () => ["/integrations"],
});

export interface TestDeliveryState extends FormState {
  deliveryId?: string;
}

export const sendTestDeliveryAction = formAction({
  permission: "integrations",
  schema: integrationIdFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id }): Promise<TestDeliveryState> => ({ deliveryId: await sendTestDelivery(session.organizationId, id) }),
  revalidate: () => ["/deliveries"],
});

const retryScheduleFormSchema = integrationIdFormSchema.extend({ retry_schedule: z.enum(RETRY_SCHEDULES) });

export const setRetryScheduleAction = formAction({
  permission: "integrations",
  schema: retryScheduleFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id, retry_schedule }): Promise<FormState> => {
    await updateIntegration(session.organizationId, id, { retrySchedule: retry_schedule });
    return { notice: "Retry schedule saved." };
  },
  revalidate: () => ["/integrations"],
});

export const recoverAction = formAction({
  permission: "deliveries",
  schema: recoverFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id, since, until }): Promise<FormState> => {
    const { queued } = await recoverFailedDeliveries(
      session.organizationId,
      id,
      { since: new Date(since), until: until === undefined ? undefined : new Date(until) },
      session.userId,
    );
    return { notice: queued === 0 ? "No failed deliveries to recover in that window." : `${queued} failed deliveries queued for redelivery.` };
  },
  revalidate: () => ["/integrations", "/deliveries"],
});
