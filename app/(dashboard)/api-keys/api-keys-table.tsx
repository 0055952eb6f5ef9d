"use client";

import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useActionState, useRef } from "react";
import type { ApiKeyRow } from "@/lib/dashboard/api-keys";
import { formatDateTime } from "@/lib/dashboard/format";
import { buttonClasses, SubmitButton } from "../_components/form-controls";
import { revokeApiKeyAction } from "./actions";

const column = createColumnHelper<ApiKeyRow>();

const columns = [
  column.accessor("name", { header: "Name", cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
  column.accessor("displayPrefix", {
    header: "Key",
    cell: (c) => <code className="font-mono text-xs">{c.getValue()}…</code>,
  }),
  column.accessor("scopes", {
    header: "Scopes",
    cell: (c) => (
      <ul className="flex flex-wrap gap-1">
        {c.getValue().map((scope) => (
          <li key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
            {scope}
          </li>
        ))}
      </ul>
    ),
  }),
  column.accessor("rateLimitPerMinute", {
    header: "Rate limit",
    cell: (c) => <span className="whitespace-nowrap tabular-nums">{c.getValue().toLocaleString("en-GB")}/min</span>,
  }),
  column.accessor("createdAt", { header: "Created", cell: (c) => <Time iso={c.getValue()} /> }),
  column.accessor("lastUsedAt", {
    header: "Last used",
    cell: (c) => {
      const value = c.getValue();
      return value ? <Time iso={value} /> : <span className="text-slate-600">Never</span>;
    },
  }),
  column.accessor("revokedAt", {
    header: "Status",
    cell: (c) => {
      const revokedAt = c.getValue();
      return revokedAt ? (
        <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800" title={formatDateTime(revokedAt)}>
          Revoked
        </span>
      ) : (
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">Active</span>
      );
    },
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => (c.row.original.revokedAt ? null : <RevokeButton apiKey={c.row.original} />),
  }),
];

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  );
}

export function ApiKeysTable({ keys }: { keys: ApiKeyRow[] }) {
  // TanStack Table v8 returns unstable functions by design; React Compiler then leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: keys, columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => row.id });
  if (keys.length === 0) {
    return <p className="px-4 py-6 text-sm text-slate-600">No API keys yet. Create one below to call the API.</p>;
  }
  return (
    // "relative" keeps the screen-reader-only labels (absolutely positioned) inside the scroll area.
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">API keys of your organization</caption>
        <thead className="bg-slate-50 text-slate-700">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className="px-4 py-2 font-medium whitespace-nowrap">
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-100">
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-testid="api-key-row" className={row.original.revokedAt ? "text-slate-600" : undefined}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-4 py-2 align-top">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Revoking is irreversible, so it asks first in a modal dialog (focus stays inside; Escape cancels). */
function RevokeButton({ apiKey }: { apiKey: ApiKeyRow }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useActionState(revokeApiKeyAction, {});
  const titleId = `revoke-title-${apiKey.id}`;
  return (
    <>
      <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.showModal()}>
        Revoke<span className="sr-only"> {apiKey.name}</span>
      </button>
      {state.error && <p className="mt-1 text-sm text-red-700">{state.error}</p>}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <form action={action} className="space-y-4 p-5">
          <input type="hidden" name="id" value={apiKey.id} />
          <h2 id={titleId} className="text-lg font-semibold">
            Revoke “{apiKey.name}”?
          </h2>
          <p className="text-sm text-slate-700">
            Requests with this key (<code className="font-mono">{apiKey.displayPrefix}…</code>) will be refused with 401
            at once. This cannot be undone.
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClasses.secondary} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <SubmitButton variant="danger" pendingLabel="Revoking…">
              Revoke key
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
