"use server";

import { revalidatePath } from "next/cache";
import { fieldErrors, formObject, formStateOfApiError, type FormState } from "@/lib/dashboard/forms";
import { refundOrderFormSchema } from "@/lib/dashboard/orders";
import { requireSession } from "@/lib/dashboard/session";
import { refundOrder } from "@/lib/orders/refunds";

export interface RefundFormState extends FormState {
  /** The reason as typed, so the dialog keeps it when the field has an error. */
  reason?: string;
}

export async function refundOrderAction(_previous: RefundFormState, formData: FormData): Promise<RefundFormState> {
  const session = await requireSession();
  const input = formObject(formData);
  const parsed = refundOrderFormSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    // Only the reason is the user's input; anything else wrong means the page itself is broken or stale.
    if (!errors.reason) return { error: "Unknown order; reload the page" };
    return { reason: typeof input.reason === "string" ? input.reason : undefined, fieldErrors: { reason: errors.reason } };
  }
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
