"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { deliveryIdFormSchema, isNotFound } from "@/lib/dashboard/integrations";
import { formObject, type FormState } from "@/lib/dashboard/forms";
import { requireSession } from "@/lib/dashboard/session";
import { redeliver } from "@/lib/webhooks/deliveries";

/** A manual resend as a new delivery; the browser goes on to that delivery's page. */
export async function redeliverAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = deliveryIdFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { error: "This delivery was not found" };
  let created: string;
  try {
    created = (await redeliver(session.organizationId, parsed.data.id)).id;
  } catch (error) {
    if (isNotFound(error)) return { error: "This delivery was not found" };
    throw error;
  }
  revalidatePath("/deliveries");
  redirect(`/deliveries/${created}`);
}
