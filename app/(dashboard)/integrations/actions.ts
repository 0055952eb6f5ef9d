"use server";

import { revalidatePath } from "next/cache";
import {
  createIntegrationFormSchema,
  integrationIdFormSchema,
  isNotFound,
  sendTestDelivery,
  setEnabledFormSchema,
} from "@/lib/dashboard/integrations";
import { fieldErrors, formObject, formStateOfApiError, type FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { createIntegration, getIntegration, rotateIntegrationSecret, updateIntegration } from "@/lib/webhooks/integrations";

const NOT_FOUND = "This integration was not found";

export interface CreateIntegrationState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: { url: string; events: string[] };
  created?: { id: string; url: string };
}

export async function createIntegrationAction(
  _previous: CreateIntegrationState,
  formData: FormData,
): Promise<CreateIntegrationState> {
  const session = await requireSession();
  const input = formObject(formData, ["events"]);
  const values = { url: String(input.url ?? ""), events: input.events as string[] };
  const parsed = createIntegrationFormSchema.safeParse(input);
  if (!parsed.success) return { values, fieldErrors: fieldErrors(parsed.error) };
  try {
    const integration = await createIntegration({ organizationId: session.organizationId, ...parsed.data });
    revalidatePath("/integrations");
    return { created: { id: integration.id, url: integration.url } };
  } catch (error) {
    // The URL rules (https only, no credentials, no private targets) are the domain's: shown at the url field.
    return { values, ...formStateOfApiError(error) };
  }
}

/** The signing secret, fetched only when someone asks to see it. */
export async function revealSecretAction(id: string): Promise<{ secret?: string; error?: string }> {
  const session = await requireSession();
  const parsed = integrationIdFormSchema.safeParse({ id });
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    const integration = await getIntegration(session.organizationId, parsed.data.id);
    return integration.signing_secret ? { secret: integration.signing_secret } : { error: "This integration is unsigned" };
  } catch (error) {
    if (isNotFound(error)) return { error: NOT_FOUND };
    throw error;
  }
}

export async function rotateSecretAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = integrationIdFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    await rotateIntegrationSecret(session.organizationId, parsed.data.id);
  } catch (error) {
    if (isNotFound(error)) return { error: NOT_FOUND };
    throw error;
  }
  revalidatePath("/integrations");
  return {};
}

export async function setEnabledAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = setEnabledFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    await updateIntegration(session.organizationId, parsed.data.id, { enabled: parsed.data.enabled });
  } catch (error) {
    if (isNotFound(error)) return { error: NOT_FOUND };
    throw error;
  }
  revalidatePath("/integrations");
  return {};
}

export interface TestDeliveryState extends FormState {
  deliveryId?: string;
}

export async function sendTestDeliveryAction(_previous: TestDeliveryState, formData: FormData): Promise<TestDeliveryState> {
  const session = await requireSession();
  const parsed = integrationIdFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: NOT_FOUND };
  try {
    const deliveryId = await sendTestDelivery(session.organizationId, parsed.data.id);
    revalidatePath("/deliveries");
    return { deliveryId };
  } catch (error) {
    if (isNotFound(error)) return { error: NOT_FOUND };
    throw error;
  }
}
