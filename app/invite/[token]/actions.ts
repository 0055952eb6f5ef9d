"use server";

import { headers } from "next/headers";
import { originOf, SYSTEM_CONTEXT, withAuditContext } from "@/lib/audit/context";
import { signIn } from "@/lib/auth/auth";
import { acceptInvitation } from "@/lib/auth/members";
import { fieldErrors, formObject, type FormState } from "@/lib/dashboard/forms";
import { formStateOfError } from "@/lib/dashboard/form-action";
import { acceptInvitationFormSchema } from "@/lib/dashboard/members";

/** Public: the token is the credential. Creates the user, then signs them in (Next's redirect propagates). */
export async function acceptInvitationAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const parsed = acceptInvitationFormSchema.safeParse(formObject(formData));
  if (!parsed.success) return { fieldErrors: fieldErrors(parsed.error) };
  let email: string;
  try {
    // The entry names the new member as its actor; the request gives where they accepted from.
    const origin = originOf(await headers());
    ({ email } = await withAuditContext({ ...SYSTEM_CONTEXT, ...origin }, () => acceptInvitation(parsed.data.token, parsed.data.password)));
  } catch (error) {
    return formStateOfError(error);
  }
  await signIn("credentials", { email, password: parsed.data.password, redirectTo: "/overview" });
  return {};
}
