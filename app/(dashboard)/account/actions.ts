"use server";

import { z } from "zod";
import { signIn, signOut } from "@/lib/auth/auth";
import { changeOwnPassword, removeMember } from "@/lib/auth/members";
import { formAction } from "@/lib/dashboard/form-action";
import type { FormState } from "@/lib/dashboard/forms";
import { changePasswordFormSchema, PASSWORD_CHANGED } from "@/lib/dashboard/members";

export const changePasswordAction = formAction({
  permission: "account",
  schema: changePasswordFormSchema,
  unknown: "This form is out of date; reload the page",
  run: async (session, { current, password }): Promise<FormState> => {
    const email = await changeOwnPassword(session, current, password);
    // Every session ended with the old password; this browser signs in again with the new one.
    await signIn("credentials", { email, password, redirect: false });
    return { notice: PASSWORD_CHANGED };
  },
  // The new session cookie makes Next render the page anew, and the form's state goes with it: the page says it.
  redirectTo: () => "/account?password=changed",
});

/** Leaving: the user row goes, and with it every session; refused for the last owner. */
export const leaveOrganizationAction = formAction({
  permission: "account",
  schema: z.strictObject({}),
  unknown: "This form is out of date; reload the page",
  run: async (session): Promise<FormState> => {
    await removeMember(session.organizationId, session.userId, { userId: session.userId, role: session.role });
    await signOut({ redirect: false });
    return { notice: "You have left the organization." };
  },
  redirectTo: () => "/login",
});
