"use server";

import { revalidatePath } from "next/cache";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { issueUserToken } from "@/lib/auth/user-token";
import { createApiKeyFormSchema, revokeApiKeyFormSchema } from "@/lib/dashboard/api-keys";
import { fieldErrors, formObject, type FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";

export interface CreateApiKeyState extends FormState {
  /** What was submitted, so a form with errors keeps the user's input. */
  values?: { name: string; scopes: string[]; rateLimitPerMinute: string };
  /** The full key, present only in the response to the request that created it. */
  created?: { name: string; key: string };
}

export async function createApiKeyAction(_previous: CreateApiKeyState, formData: FormData): Promise<CreateApiKeyState> {
  const session = await requireSession();
  const input = formObject(formData, ["scopes"]);
  const parsed = createApiKeyFormSchema.safeParse(input);
  if (!parsed.success) {
    const values = {
      name: String(input.name ?? ""),
      scopes: input.scopes as string[],
      rateLimitPerMinute: String(input.rateLimitPerMinute ?? ""),
    };
    return { values, fieldErrors: fieldErrors(parsed.error) };
  }
  const { key } = await createApiKey({ organizationId: session.organizationId, ...parsed.data });
  revalidatePath("/api-keys");
  return { created: { name: parsed.data.name, key } };
}

export async function revokeApiKeyAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = revokeApiKeyFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Unknown API key" };
  const revoked = await revokeApiKey(session.organizationId, parsed.data.id);
  revalidatePath("/api-keys");
  return revoked ? {} : { error: "This key was not found or is already revoked" };
}

const API_TOKEN_TTL_SECONDS = 60 * 60;

/** A dashboard user JWT for the webhook delivery inspection endpoints, valid for one hour. */
export async function issueApiTokenAction(): Promise<{ token: string; expiresAt: string }> {
  const session = await requireSession();
  const now = Date.now();
  return {
    token: await issueUserToken(session, API_TOKEN_TTL_SECONDS, now),
    expiresAt: new Date(now + API_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}
