"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { RETRY_SCHEDULES } from "@/db/schema";
import { formObject, type FormState } from "@/lib/dashboard/forms";
import { integrationIdFormSchema, isNotFound } from "@/lib/dashboard/integrations";
import { requireSession } from "@/lib/dashboard/session";
import { updateIntegration } from "@/lib/webhooks/integrations";

const retryScheduleFormSchema = integrationIdFormSchema.extend({ retry_schedule: z.enum(RETRY_SCHEDULES) });

export interface RetryScheduleState extends FormState {
  saved?: string;
}

export async function setRetryScheduleAction(_previous: RetryScheduleState, formData: FormData): Promise<RetryScheduleState> {
  const session = await requireSession();
  const parsed = retryScheduleFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "Choose a webhook and a retry schedule" };
  try {
    await updateIntegration(session.organizationId, parsed.data.id, { retrySchedule: parsed.data.retry_schedule });
  } catch (error) {
    if (isNotFound(error)) return { error: "This integration was not found" };
    throw error;
  }
  revalidatePath("/integrations");
  return { saved: parsed.data.retry_schedule };
}
