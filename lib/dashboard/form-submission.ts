import { z } from "zod";
import { withAuditContext, type RequestOrigin } from "@/lib/audit/context";
import { can, forbiddenMessage, type Permission } from "@/lib/auth/permissions";
import { apiErrorFromDatabase } from "@/lib/http/db-errors";
import { ApiError, type ErrorCode } from "@/lib/http/errors";
import { fieldErrors, formObject, type FormState } from "./forms";
import type { DashboardSession } from "./session";

/** A path to revalidate after a successful action; `layout` also covers every page below it. */
export type RevalidateTarget = string | { layout: string };

export interface FormActionSpec<Data, State extends FormState> {
  /** What the user's role must allow (lib/auth/permissions); checked before anything else is read. */
  permission: Permission;
  /** Checks the whole form, hidden record ids included; a function when it depends on the organization (its currency). */
  schema: z.ZodType<Data> | ((session: DashboardSession) => Promise<z.ZodType<Data>>);
  /** Checkbox groups: always arrays, even with nothing ticked. */
  lists?: readonly string[];
  /** Fields the user does not type (hidden record ids); a wrong one means a stale page, told by `unknown`. */
  hidden?: readonly string[];
  unknown: string;
  /** What a refused submission keeps of the input, so the form shows it again. */
  keep?: (input: Record<string, unknown>) => Partial<State>;
  /** The domain call; its state is the form's after success. */
  run: (session: DashboardSession, data: Data) => Promise<State>;
  revalidate?: (data: Data, state: State) => RevalidateTarget[];
  /** Where the browser goes after success, instead of staying on the form. */
  redirectTo?: (state: State) => string;
}

export type FormOutcome<Data, State> = { ok: true; data: Data; state: State } | { ok: false; state: State };

/**
 * The dashboard's one wording for codes whose API messages are generic or vary by where the check ran
 * ("Validation failed", "Invalid request body"); other codes keep the API's message, which names the problem.
 */
const WORDING: Partial<Record<ErrorCode, string>> = {
  validation_failed: "Some values need correcting: see the fields marked below",
  rate_limited: "Too many requests: wait a moment, then try again",
  service_unavailable: "The service is temporarily unavailable: try again in a moment",
};

const fieldName = (path: readonly PropertyKey[] | undefined) => String(path?.at(-1) ?? "value").replaceAll("_", " ");

/**
 * Field-specific texts for the checks a schema words no message for, instead of zod's defaults ("Invalid
 * input: expected object, received undefined"); pass as `{ error: formIssueText }` when parsing a form.
 */
export function formIssueText(issue: z.core.$ZodRawIssue): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined || issue.input === "" ? `Enter the ${field}` : `Enter a valid ${field}`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? `Enter the ${field}` : `The ${field} needs at least ${issue.minimum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at least ${issue.minimum}`;
      return `The ${field} must be at least ${Number(issue.minimum).toLocaleString("en-GB")}`;
    case "too_big":
      if (issue.origin === "string") return `The ${field} can have at most ${issue.maximum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${issue.maximum}`;
      return `The ${field} must be at most ${Number(issue.maximum).toLocaleString("en-GB")}`;
    case "invalid_value":
      return `Choose one of the offered ${field} values`;
    case "unrecognized_keys":
      return "This form is out of date; reload the page";
    default:
      return `Enter a valid ${field}`;
  }
}

/** Parse options for the API body schemas an action checks its form's output with. */
export const FORM_PARSE = { error: formIssueText };

/**
 * An error as the API would answer it, as form state: its message, and its details next to the fields they
 * name. Database errors go through the API's own mapping (a unique-key clash is its 409 message); anything
 * the API would answer as a 500 (and Next's redirects) is thrown on.
 */
export function formStateOfError(error: unknown): FormState {
  const apiError = error instanceof ApiError ? error : apiErrorFromDatabase(error);
  if (!apiError) throw error;
  const fields: Record<string, string> = {};
  for (const detail of apiError.details ?? []) fields[detail.path.split(".")[0] ?? "form"] ??= detail.message;
  const wording = WORDING[apiError.code];
  // A generic validation message gives way only when its details say, at the fields, what is wrong.
  const worded = wording && (apiError.code !== "validation_failed" || Object.keys(fields).length > 0);
  return { error: worded ? wording : apiError.message, fieldErrors: fields };
}

const NO_ORIGIN: RequestOrigin = { ipAddress: null, userAgent: null };

/**
 * Role → parse → domain call → error mapping for one submitted form, without the request-bound session and cache.
 * The domain call runs as the session's user from `origin`, which is what the audit log records.
 */
export async function settleForm<Data, State extends FormState>(
  spec: FormActionSpec<Data, State>,
  session: DashboardSession,
  formData: FormData,
  origin: RequestOrigin = NO_ORIGIN,
): Promise<FormOutcome<Data, State>> {
  const input = formObject(formData, spec.lists);
  const kept = () => (spec.keep?.(input) ?? {}) as State;
  if (!can(session.role, spec.permission)) {
    return { ok: false, state: { ...kept(), error: forbiddenMessage(session.role, spec.permission) } };
  }
  const schema = typeof spec.schema === "function" ? await spec.schema(session) : spec.schema;
  const parsed = schema.safeParse(input, FORM_PARSE);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const hidden = spec.hidden ?? ["id"];
    if (Object.keys(errors).some((field) => hidden.includes(field) || field === "form")) {
      return { ok: false, state: { ...kept(), error: spec.unknown } };
    }
    return { ok: false, state: { ...kept(), fieldErrors: errors } };
  }
  try {
    const audit = { actor: { type: "user", id: session.userId, label: session.email } as const, ...origin };
    return { ok: true, data: parsed.data, state: await withAuditContext(audit, () => spec.run(session, parsed.data)) };
  } catch (error) {
    // A second check inside the call (the API's body schema on the form's output) reports at its fields too.
    if (error instanceof z.ZodError) return { ok: false, state: { ...kept(), fieldErrors: fieldErrors(error) } };
    return { ok: false, state: { ...kept(), ...formStateOfError(error) } };
  }
}
