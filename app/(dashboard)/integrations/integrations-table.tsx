"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { useState, useTransition } from "react";
import type { IntegrationRow, IntegrationSort } from "@/lib/dashboard/integrations";
import { ROTATION_OVERLAPS } from "@/lib/dashboard/rotation-overlaps";
import type { SortLinks } from "@/lib/dashboard/paging";
import { CopyButton } from "../_components/copy-button";
import { buttonClasses } from "../_components/button-classes";
import { SubmitButton } from "../_components/form-controls";
import { DataTable } from "../_components/data-table";
import { TruncatedText } from "../_components/table-sections";
import { revealSecretAction, rotateSecretAction, sendTestDeliveryAction, setEnabledAction, type RotateSecretState } from "./actions";
import { DeleteIntegrationButton, EditIntegrationButton, IntegrationDialog, RecoverButton } from "./integration-dialogs";
import { RecoveryProgressNote } from "./recovery-progress";
import { useFormAction } from "../_components/notices";
import { DateTime } from "../_components/date-time";

const column = createColumnHelper<IntegrationRow>();

const badge = "rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap";

const columns = [
  column.accessor("url", { header: "URL", meta: { sort: "url" satisfies IntegrationSort }, cell: (c) => <TruncatedText text={c.getValue()} className="font-mono text-xs" /> }),
  column.accessor("events", {
    header: "Events",
    cell: (c) => (
      <ul className="flex flex-wrap gap-1">
        {c.getValue().map((event) => (
          <li key={event} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
            {event}
          </li>
        ))}
      </ul>
    ),
  }),
  column.accessor("enabled", {
    header: "Status",
    cell: (c) => (
      <div className="flex flex-col items-start gap-1">
        {c.getValue() ? (
          <span className={`${badge} bg-emerald-100 text-emerald-900`}>Enabled</span>
        ) : (
          <span className={`${badge} bg-slate-200 text-slate-800`}>Disabled</span>
        )}
        {c.row.original.failingSince && (
          <span className={`${badge} bg-red-100 text-red-900`} data-testid="integration-failing">
            Failing since <DateTime iso={c.row.original.failingSince} />
          </span>
        )}
      </div>
    ),
  }),
  column.accessor("signed", {
    header: "Signing",
    cell: (c) =>
      c.getValue() ? (
        <span className={`${badge} bg-blue-100 text-blue-900`}>Signed</span>
      ) : (
        <span className={`${badge} bg-amber-100 text-amber-900`}>Unsigned</span>
      ),
  }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { sort: "created" satisfies IntegrationSort },
    cell: (c) => <DateTime iso={c.getValue()} />,
  }),
];

/**
 * One page of integrations, already sorted and paged by the server (the URL holds those); each row is
 * followed by a full-width row of its controls.
 */
export function IntegrationsTable({
  integrations,
  sortLinks,
  eventTypes,
}: {
  integrations: IntegrationRow[];
  sortLinks: SortLinks<IntegrationSort>;
  eventTypes: readonly string[];
}) {
  return (
    <DataTable
      data={integrations}
      columns={columns}
      getRowId={(row) => row.id}
      caption="Webhook integrations of your organization"
      testId="integration"
      sortLinks={sortLinks}
      rowClassName={(row) => (row.original.enabled ? "" : "text-slate-600")}
      rowDetails={(integration) => <IntegrationControls integration={integration} eventTypes={eventTypes} />}
    />
  );
}

function IntegrationControls({ integration, eventTypes }: { integration: IntegrationRow; eventTypes: readonly string[] }) {
  return (
    <div className="space-y-2">
      {/* Keyed by updatedAt: after a rotation a revealed secret is hidden again rather than shown stale. */}
      {integration.description && <p className="text-sm text-slate-700">{integration.description}</p>}
      {integration.signed && <SigningSecret key={integration.updatedAt} integration={integration} />}
      {integration.recovery && <RecoveryProgressNote recovery={integration.recovery} />}
      {integration.previousSecretExpiresAt && (
        <p className="text-sm text-amber-900">
          Previous secret still signs until <DateTime iso={integration.previousSecretExpiresAt} />.
        </p>
      )}
      <div className="flex flex-wrap items-start gap-2">
        <RotateSecretButton integration={integration} />
        <EditIntegrationButton integration={integration} eventTypes={eventTypes} />
        <EnableToggle integration={integration} />
        <TestDeliveryButton integration={integration} />
        <RecoverButton integration={integration} />
        <DeleteIntegrationButton integration={integration} />
      </div>
    </div>
  );
}

/** Hidden until asked for: the secret is fetched from the server only on "Reveal". */
function SigningSecret({ integration }: { integration: IntegrationRow }) {
  const [pending, startTransition] = useTransition();
  const [revealed, setRevealed] = useState<{ secret?: string; error?: string } | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium text-slate-800">Signing secret</span>
      {revealed?.secret ? (
        <>
          <code className="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-900" data-testid="signing-secret">
            {revealed.secret}
          </code>
          <CopyButton text={revealed.secret} label="Copy secret" />
          <button type="button" className={buttonClasses.secondary} onClick={() => setRevealed(null)}>
            Hide<span className="sr-only"> secret of {integration.url}</span>
          </button>
        </>
      ) : (
        <>
          <span aria-hidden="true" className="font-mono text-xs text-slate-600">
            whsec_••••••••••••
          </span>
          <button
            type="button"
            disabled={pending}
            className={buttonClasses.secondary}
            onClick={() => startTransition(async () => setRevealed(await revealSecretAction(integration.id)))}
          >
            {pending ? "Revealing…" : "Reveal"}
            <span className="sr-only"> secret of {integration.url}</span>
          </button>
          {revealed?.error && <span className="text-red-700">{revealed.error}</span>}
        </>
      )}
    </div>
  );
}

const OVERLAP_LABELS: Record<number, string> = { 0: "Now", 3600: "In 1 hour", 86_400: "In 24 hours", 604_800: "In 7 days" };

/**
 * Rotating breaks verification at receivers that still hold the old secret, so it asks first and offers an
 * overlap during which deliveries carry both signatures. The new secret is shown at once.
 */
function RotateSecretButton({ integration }: { integration: IntegrationRow }) {
  const verb = integration.signed ? "Rotate secret" : "Create secret";
  return (
    <IntegrationDialog<RotateSecretState>
      integration={integration}
      trigger={verb}
      title={integration.signed ? "Rotate the signing secret?" : "Create a signing secret?"}
      action={rotateSecretAction}
      submit={verb}
      pendingLabel="Rotating…"
      variant="danger"
      result={(state) =>
        state.secret && (
          <div role="status" className="mt-2 max-w-md space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
            <p className="font-medium">New signing secret created. Copy it to the receiver now.</p>
            <code className="block rounded bg-white px-2 py-1 font-mono text-xs break-all" data-testid="new-signing-secret">
              {state.secret}
            </code>
            <CopyButton text={state.secret} label="Copy new secret" />
            {state.previousExpiresAt && (
              <p>
                The previous secret keeps signing until <DateTime iso={state.previousExpiresAt} />.
              </p>
            )}
          </div>
        )
      }
      body={() => (
          <>
            <p className="text-sm text-slate-700">
              {integration.signed
                ? "The next delivery attempt is signed with the new secret. "
                : "Deliveries will carry signature headers from the next attempt on. "}
              Update the receiver at <span className="font-mono break-all">{integration.url}</span> with the new secret.
            </p>
            {integration.signed && (
              <label className="block text-sm font-medium text-slate-800">
                The current secret expires
                <select name="expire_previous_in" defaultValue="0" className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5">
                  {ROTATION_OVERLAPS.map((seconds) => (
                    <option key={seconds} value={seconds}>
                      {OVERLAP_LABELS[seconds]}
                    </option>
                  ))}
                </select>
                <span className="block text-xs font-normal text-slate-600">Until then each delivery carries both signatures.</span>
              </label>
            )}
          </>
      )}
    />
  );
}

function EnableToggle({ integration }: { integration: IntegrationRow }) {
  const [state, action] = useFormAction(setEnabledAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={integration.id} />
      <input type="hidden" name="enabled" value={String(!integration.enabled)} />
      <SubmitButton variant="secondary" pendingLabel={integration.enabled ? "Disabling…" : "Enabling…"}>
        {integration.enabled ? "Disable" : "Enable"}
        <span className="sr-only"> {integration.url}</span>
      </SubmitButton>
      {state.error && <p className="mt-1 text-sm text-red-700">{state.error}</p>}
    </form>
  );
}

function TestDeliveryButton({ integration }: { integration: IntegrationRow }) {
  const [state, action] = useFormAction(sendTestDeliveryAction, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={integration.id} />
      <SubmitButton variant="secondary" pendingLabel="Sending…">
        Send test delivery<span className="sr-only"> to {integration.url}</span>
      </SubmitButton>
      <div role="status" className="mt-1 text-sm">
        {state.deliveryId && (
          <Link
            href={`/deliveries/${state.deliveryId}`}
            className="text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Test delivery queued: view it
          </Link>
        )}
        {state.error && <span className="text-red-700">{state.error}</span>}
      </div>
    </form>
  );
}
