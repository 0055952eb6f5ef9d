"use server";

import { deliveryIdFormSchema } from "@/lib/dashboard/integrations";
import { formAction } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { redeliver } from "@/lib/webhooks/deliveries";

/** A manual resend as a new delivery; the browser goes on to that delivery's page. */
export const redeliverAction = formAction({
  permission: "deliveries",
  schema: deliveryIdFormSchema,
  unknown: "This delivery was not found",
  run: async (session, { id }): Promise<FormState & { created?: string }> => ({ created: (await redeliver(session.organizationId, id)).id }),
  revalidate: () => ["/deliveries"],
  redirectTo: ({ created }) => `/deliveries/${created}`,
});
