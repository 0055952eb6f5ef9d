"use server";

import { formAction } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { refundOrderFormSchema } from "@/lib/dashboard/orders";
import { refundOrder } from "@/lib/orders/refunds";

export interface RefundFormState extends FormState {
  /** The reason as typed, so the dialog keeps it when the field has an error. */
  reason?: string;
}

// 409 when it was refunded meanwhile (another tab, the API): the message says so; a reload shows the new state.
export const refundOrderAction = formAction({
  permission: "refunds",
  schema: refundOrderFormSchema,
  // Only the reason is the user's input; anything else wrong means the page itself is broken or stale.
  hidden: ["uuid"],
  unknown: "Unknown order; reload the page",
  keep: (input): RefundFormState => ({ reason: typeof input.reason === "string" ? input.reason : undefined }),
  run: async (session, { uuid, reason }): Promise<RefundFormState> => {
    await refundOrder(session.organizationId, uuid, reason);
    return { notice: "Order refunded." };
  },
  revalidate: ({ uuid }) => ["/orders", `/orders/${uuid}`],
});
