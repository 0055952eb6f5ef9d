import { z } from "zod";

/** What a form's server action returns to `useActionState`: a message and errors next to fields, or a success notice. */
export interface FormState {
  error?: string;
  fieldErrors?: Record<string, string>;
  notice?: string;
}

/** A create or edit form's state: the input kept after an error, the saved record announced after success. */
export interface SavedFormState extends FormState {
  values?: Record<string, string>;
  saved?: { id: string; name: string };
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

/** The first message per top-level field, for showing next to that field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    out[field] ??= issue.message;
  }
  return out;
}
