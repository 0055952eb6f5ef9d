"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import type { RequestLogRow } from "@/lib/dashboard/request-log";
import { DataTable } from "../_components/data-table";
import { DateTime } from "../_components/date-time";
import { TruncatedText } from "../_components/table-sections";
import { StatusCode } from "./status-code";

const column = createColumnHelper<RequestLogRow>();

const columns = [
  column.accessor("created_at", { header: "Time (UTC)", cell: (c) => <DateTime iso={c.getValue()} seconds /> }),
  column.accessor("method", { header: "Method", cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  column.accessor("path", {
    header: "Path",
    cell: (c) => (
      <Link
        href={`/logs/${c.row.original.trace_id}`}
        className="font-mono text-xs break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {c.getValue()}
        {c.row.original.query ? `?${c.row.original.query}` : ""}
      </Link>
    ),
  }),
  column.accessor("status", { header: "Status", cell: (c) => <StatusCode status={c.getValue()} /> }),
  column.accessor("duration_ms", {
    header: "Duration",
    meta: { align: "right" },
    cell: (c) => <span className="tabular-nums">{c.getValue().toFixed(1)} ms</span>,
  }),
  column.accessor("keyName", { header: "Key", cell: (c) => <TruncatedText text={c.getValue()} className="text-xs" /> }),
  column.accessor("trace_id", { header: "Trace id", cell: (c) => <code className="font-mono text-xs break-all">{c.getValue()}</code> }),
];

/** One page of logged requests; filtering and paging happen on the server through the URL. */
export function LogsTable({ rows }: { rows: RequestLogRow[] }) {
  return <DataTable data={rows} columns={columns} getRowId={(row) => row.trace_id} caption="Logged API requests" testId="request-row" />;
}
