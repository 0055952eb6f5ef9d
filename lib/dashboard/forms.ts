import { z } from "zod";
import { ApiError } from "@/lib/http/errors";

/** What a form's server action returns to `useActionState`: a message and errors next to fields. */
export interface FormState {
  error?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * FormData as a plain object for a zod schema. Names in `lists` are always arrays (checkbox groups),
 * other fields take their single text value; the action's own "$ACTION_…" fields are left out.
 */
export function formObject(formData: FormData, lists: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of lists) out[name] = [];
  for (const [name, value] of formData) {
    if (name.startsWith("$ACTION") || typeof value !== "string") continue;
    if (lists.includes(name)) (out[name] as string[]).push(value);
    else out[name] = value;
  }
  return out;
}

/** The submitted fields as text, for a form with errors to show the user's input again. */
export function submittedValues(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, String(value ?? "")]));
}

/** A form that names one record by its public id; the domain decides whether it exists in the organization. */
export const idFormSchema = z.strictObject({ id: z.string().min(1) });

/**
 * An edit form's record id, checked by idFormSchema (null when missing or not text), and its other
 * fields for the form's own schema.
 */
export function editFormObject(formData: FormData): { id: string | null; input: Record<string, unknown> } {
  const { id, ...input } = formObject(formData);
  const parsed = idFormSchema.safeParse({ id });
  return { id: parsed.success ? parsed.data.id : null, input };
}

/** The first message per top-level field, for showing next to that field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    out[field] ??= issue.message;
  }
  return out;
}

/** A domain error as form state: its message, and its details next to the fields they name. */
export function formStateOfApiError(error: unknown): FormState {
  if (!(error instanceof ApiError)) throw error;
  const fieldErrors: Record<string, string> = {};
  for (const detail of error.details ?? []) fieldErrors[detail.path.split(".")[0] ?? "form"] ??= detail.message;
  return { error: error.message, fieldErrors };
}
