"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth/auth";
import { fieldErrors, formObject, type FormState } from "@/lib/dashboard/forms";
import { safeReturnPath } from "@/lib/dashboard/return-path";
import { apiErrorFromDatabase } from "@/lib/http/db-errors";

const signInFormSchema = z.strictObject({
  email: z.string().trim().min(1, "Enter your email address").max(320, "Too long"),
  password: z.string().min(1, "Enter your password").max(1000, "Too long"),
});

export interface SignInState extends FormState {
  email?: string;
}

export async function signInAction(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const { next, ...input } = formObject(formData);
  const email = typeof input.email === "string" ? input.email : "";
  const parsed = signInFormSchema.safeParse(input);
  if (!parsed.success) return { email, fieldErrors: fieldErrors(parsed.error) };
  try {
    // On success this throws Next's redirect, which must propagate.
    await signIn("credentials", { ...parsed.data, redirectTo: safeReturnPath(next) ?? "/overview" });
    return {};
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "throttled") {
      return { email, error: "Too many failed sign-in attempts. Wait 15 minutes, then try again." };
    }
    // Auth.js wraps what the credentials check threw as `cause.err`.
    const thrown = error instanceof AuthError ? ((error.cause as { err?: unknown } | undefined)?.err ?? error) : error;
    if (apiErrorFromDatabase(thrown)?.code === "service_unavailable") {
      return { email, error: "The service is temporarily unavailable, so you cannot sign in right now. Try again in a minute." };
    }
    // One message for an unknown e-mail and a wrong password alike.
    if (error instanceof AuthError) return { email, error: "Invalid email or password" };
    throw error;
  }
}
