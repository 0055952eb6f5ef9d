"use client";

import { useState, useTransition } from "react";
import { issueApiTokenAction } from "../api-keys/actions";
import { formatDateTime } from "@/lib/dashboard/format";
import { buttonClasses } from "./button-classes";

/** Issues a short-lived dashboard user token for the webhook inspection endpoints and copies it. */
export function ApiTokenButton() {
  const [pending, startTransition] = useTransition();
  const [issued, setIssued] = useState<{ token: string; expiresAt: string; copied: boolean } | null>(null);
  return (
    <div className="space-y-2">
      <button
        type="button"
        disabled={pending}
        className={buttonClasses.secondary}
        onClick={() =>
          startTransition(async () => {
            const { token, expiresAt } = await issueApiTokenAction();
            const copied = await navigator.clipboard.writeText(token).then(
              () => true,
              () => false,
            );
            setIssued({ token, expiresAt, copied });
          })
        }
      >
        {pending ? "Issuing…" : "Copy API token"}
      </button>
      <div role="status">
        {issued && (
          <div className="space-y-1 text-sm">
            <p className="text-slate-700">
              {issued.copied ? "Copied to the clipboard." : "Copy the token below."} Valid until{" "}
              {formatDateTime(issued.expiresAt)}.
            </p>
            <label className="block">
              <span className="sr-only">API token</span>
              <input
                readOnly
                value={issued.token}
                data-testid="api-token"
                onFocus={(e) => e.currentTarget.select()}
                className="w-full rounded-md border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs"
              />
            </label>
          </div>
        )}
      </div>
    </div>
  );
}
