"use server";

import { revalidatePath } from "next/cache";
import { fieldErrors, formObject, formStateOfApiError, type FormState } from "@/lib/dashboard/forms";
import { refundOrderFormSchema } from "@/lib/dashboard/orders";
import { requireSession } from "@/lib/dashboard/session";
import { refundOrder } from "@/lib/orders/refunds";

export async function refundOrderAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const session = await requireSession();
  const parsed = refundOrderFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { fieldErrors: fieldErrors(parsed.error) };
  try {
    await refundOrder(session.organizationId, parsed.data.uuid, parsed.data.reason);
  } catch (error) {
    // 409 when it was refunded meanwhile (another tab, the API): the message says so; a reload shows the new state.
    return formStateOfApiError(error);
  }
  revalidatePath("/orders");
  revalidatePath(`/orders/${parsed.data.uuid}`);
  return {};
}
