"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { AuditLogJson } from "@/lib/audit/audit-log";
import { DataTable } from "../_components/data-table";
import { DateTime } from "../_components/date-time";

const column = createColumnHelper<AuditLogJson>();

const ACTOR_KINDS = { user: "User", api_key: "API key", system: "System" } as const;

const columns = [
  column.accessor("created_at", { header: "Time", cell: (c) => <DateTime iso={c.getValue()} seconds /> }),
  column.accessor("action", { header: "Action", cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  column.accessor("actor", {
    header: "Actor",
    cell: (c) => (
      <span className="break-all">
        <span className="sr-only">{ACTOR_KINDS[c.getValue().type]}: </span>
        {c.getValue().label}
        {c.getValue().type !== "user" && <span className="ml-1 text-xs text-slate-600">({ACTOR_KINDS[c.getValue().type]})</span>}
      </span>
    ),
  }),
  column.accessor("target", {
    header: "Target",
    cell: (c) => (
      <span className="break-all">
        <span className="text-xs text-slate-600">{c.getValue().type}</span> {c.getValue().label ?? c.getValue().id}
      </span>
    ),
  }),
  column.accessor("ip_address", {
    header: "From",
    cell: (c) => (
      <span className="block max-w-xs">
        <span className="font-mono text-xs">{c.getValue() ?? "—"}</span>
        {c.row.original.user_agent && <span className="block truncate text-xs text-slate-600" title={c.row.original.user_agent}>{c.row.original.user_agent}</span>}
      </span>
    ),
  }),
  column.accessor("details", {
    header: "Details",
    cell: (c) => {
      const entries = Object.entries(c.getValue());
      return entries.length === 0 ? (
        "—"
      ) : (
        <span className="font-mono text-xs break-all">{entries.map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`).join(", ")}</span>
      );
    },
  }),
];

/** One page of the audit log, newest first; filtering and paging happen on the server through the URL. */
export function AuditTable({ entries }: { entries: AuditLogJson[] }) {
  return <DataTable data={entries} columns={columns} getRowId={(row) => row.id} caption="Audit log entries" testId="audit-row" scrollLabel="Audit log" />;
}
