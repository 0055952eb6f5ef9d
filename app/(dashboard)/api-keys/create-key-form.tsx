"use client";

import { SCOPES } from "@/lib/auth/scopes";
import { CopyButton } from "../_components/copy-button";
import { FieldError, SubmitButton, TextField } from "../_components/form-controls";
import { createApiKeyAction, type CreateApiKeyState } from "./actions";
import { useFormAction } from "../_components/notices";

const SCOPE_HINTS: Partial<Record<(typeof SCOPES)[number], string>> = {
  "*": "everything, including future scopes",
  "audit:read": "the organization's audit log (GET /v1/audit-log)",
  "customers:read": "includes memberships:read",
  "logs:read": "the request log",
};

export function CreateKeyForm() {
  const [state, action] = useFormAction<CreateApiKeyState>(createApiKeyAction, {});
  const values = state.values;
  const errors = state.fieldErrors ?? {};
  return (
    <div className="space-y-4">
      {state.created && (
        <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4" data-testid="new-key">
          <p className="font-medium text-emerald-900">
            Key “{state.created.name}” created. Copy it now: it is shown only once.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all text-slate-900" data-testid="new-key-value">
              {state.created.key}
            </code>
            <CopyButton text={state.created.key} label="Copy key" />
          </div>
        </div>
      )}
      <form action={action} noValidate className="space-y-4" key={state.created?.key ?? "form"}>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" name="name" maxLength={100} defaultValue={values?.name} error={errors.name} required />
          <TextField
            label="Rate limit (requests per minute)"
            name="rateLimitPerMinute"
            type="number"
            inputMode="numeric"
            min={1}
            max={1_000_000}
            defaultValue={values?.rateLimitPerMinute ?? "60"}
            error={errors.rateLimitPerMinute}
            required
          />
        </div>
        <fieldset aria-describedby={errors.scopes ? "scopes-error" : undefined}>
          <legend className="text-sm font-medium text-slate-800">Scopes</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  defaultChecked={values?.scopes.includes(scope)}
                  className="mt-0.5 h-4 w-4 rounded border-slate-400"
                />
                <span>
                  <code className="font-mono">{scope}</code>
                  {SCOPE_HINTS[scope] && <span className="block text-xs text-slate-600">{SCOPE_HINTS[scope]}</span>}
                </span>
              </label>
            ))}
          </div>
          <FieldError id="scopes-error" message={errors.scopes} />
        </fieldset>
        <SubmitButton pendingLabel="Creating…">Create key</SubmitButton>
      </form>
    </div>
  );
}
