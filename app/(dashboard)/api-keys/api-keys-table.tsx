"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { ApiKeyRow, ApiKeySort } from "@/lib/dashboard/api-keys";
import { formatCount, formatDateTime } from "@/lib/dashboard/format";
import type { SortLinks } from "@/lib/dashboard/paging";
import { ConfirmAction } from "../_components/confirm-button";
import { DataTable } from "../_components/data-table";
import { revokeApiKeyAction } from "./actions";
import { DateTime } from "../_components/date-time";

const column = createColumnHelper<ApiKeyRow>();

const columns = [
  column.accessor("name", { header: "Name", meta: { sort: "name" satisfies ApiKeySort }, cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
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
    cell: (c) => <span className="whitespace-nowrap tabular-nums">{formatCount(c.getValue())}/min</span>,
  }),
  column.accessor("createdAt", { header: "Created", meta: { sort: "created" satisfies ApiKeySort }, cell: (c) => <DateTime iso={c.getValue()} /> }),
  column.accessor("lastUsedAt", {
    header: "Last used",
    meta: { sort: "last_used" satisfies ApiKeySort },
    cell: (c) => {
      const value = c.getValue();
      return value ? <DateTime iso={value} /> : <span className="text-slate-600">Never</span>;
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


/** One page of keys, already sorted and paged by the server (the URL holds page, size and sort). */
export function ApiKeysTable({ keys, sortLinks }: { keys: ApiKeyRow[]; sortLinks: SortLinks<ApiKeySort> }) {
  return (
    <DataTable
      data={keys}
      columns={columns}
      getRowId={(row) => row.id}
      caption="API keys of your organization"
      testId="api-key-row"
      sortLinks={sortLinks}
      rowClassName={(row) => (row.original.revokedAt ? "text-slate-600" : undefined)}
    />
  );
}

/** Revoking is irreversible, so it asks first. */
function RevokeButton({ apiKey }: { apiKey: ApiKeyRow }) {
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmAction
        label="Revoke"
        target={apiKey.name}
        title={`Revoke “${apiKey.name}”?`}
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        serverAction={revokeApiKeyAction}
        fields={{ id: apiKey.id }}
      >
        Requests with this key (<code className="font-mono">{apiKey.displayPrefix}…</code>) will be refused with 401 at
        once. This cannot be undone.
      </ConfirmAction>
    </div>
  );
}
