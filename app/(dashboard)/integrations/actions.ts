"use server";

import { z } from "zod";
import { RETRY_SCHEDULES } from "@/db/schema";
import {
  createIntegrationFormSchema,
  integrationIdFormSchema,
  setEnabledFormSchema,
} from "@/lib/dashboard/integrations";
import { formAction, formStateOfError } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { createIntegration, getIntegration, rotateIntegrationSecret, updateIntegration } from "@/lib/webhooks/integrations";
import { sendTestDelivery } from "@/lib/webhooks/test-delivery";

const NOT_FOUND = "This integration was not found";

export interface CreateIntegrationState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: { url: string; events: string[] };
  created?: { id: string; url: string };
}

export const createIntegrationAction = formAction({
  schema: createIntegrationFormSchema,
  lists: ["events"],
  unknown: "This form is out of date; reload the page",
  // The URL rules (https only, no credentials, no private targets) are the domain's: shown at the url field.
  keep: (input): CreateIntegrationState => ({ values: { url: String(input.url ?? ""), events: input.events as string[] } }),
  run: async (session, data): Promise<CreateIntegrationState> => {
    const integration = await createIntegration({ organizationId: session.organizationId, ...data });
    return { created: { id: integration.id, url: integration.url } };
  },
  revalidate: () => ["/integrations"],
});

/** The signing secret, fetched only when someone asks to see it. */
export async function revealSecretAction(id: string): Promise<{ secret?: string; error?: string }> {
  const session = await requireSession();
  const parsed = integrationIdFormSchema.safeParse({ id });
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    const integration = await getIntegration(session.organizationId, parsed.data.id);
    return integration.signing_secret ? { secret: integration.signing_secret } : { error: "This integration is unsigned" };
  } catch (error) {
    return formStateOfError(error);
  }
}

export const rotateSecretAction = formAction({
  schema: integrationIdFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id }): Promise<FormState> => {
    await rotateIntegrationSecret(session.organizationId, id);
    return { notice: "Signing secret rotated." };
  },
  revalidate: () => ["/integrations"],
});

export const setEnabledAction = formAction({
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
  schema: integrationIdFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id }): Promise<TestDeliveryState> => ({ deliveryId: await sendTestDelivery(session.organizationId, id) }),
  revalidate: () => ["/deliveries"],
});

const retryScheduleFormSchema = integrationIdFormSchema.extend({ retry_schedule: z.enum(RETRY_SCHEDULES) });

export const setRetryScheduleAction = formAction({
  schema: retryScheduleFormSchema,
  unknown: NOT_FOUND,
  run: async (session, { id, retry_schedule }): Promise<FormState> => {
    await updateIntegration(session.organizationId, id, { retrySchedule: retry_schedule });
    return { notice: "Retry schedule saved." };
  },
  revalidate: () => ["/integrations"],
});
