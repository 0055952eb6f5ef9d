"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { TableBody, TableHead } from "../_components/table-sections";
import Link from "next/link";
import { formatDateTime } from "@/lib/dashboard/format";
import type { DeliveryRow } from "@/lib/dashboard/integrations";
import { StatusBadge } from "./status-badge";

const column = createColumnHelper<DeliveryRow>();

function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-600">–</span>;
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso)}
    </time>
  );
}

const columns = [
  column.accessor("id", {
    header: "Delivery",
    cell: (c) => (
      <Link
        href={`/deliveries/${c.getValue()}`}
        className="font-mono text-xs text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {c.getValue()}
      </Link>
    ),
  }),
  column.accessor("integrationUrl", {
    header: "Integration",
    cell: (c) => (
      <span className="font-mono text-xs break-all">{c.getValue() ?? c.row.original.integrationId}</span>
    ),
  }),
  column.accessor("eventType", { header: "Event", cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  column.accessor("status", { header: "Status", cell: (c) => <StatusBadge status={c.getValue()} /> }),
  column.accessor("attemptCount", {
    header: "Attempts",
    cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
  }),
  column.accessor("nextRetryAt", { header: "Next retry", cell: (c) => <Time iso={c.getValue()} /> }),
  column.accessor("createdAt", { header: "Created", cell: (c) => <Time iso={c.getValue()} /> }),
];

/** One page of deliveries; paging and filtering happen on the server through the URL. */
export function DeliveriesTable({ deliveries }: { deliveries: DeliveryRow[] }) {
  // TanStack Table v8 returns unstable functions by design; React Compiler then leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: deliveries,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
    manualFiltering: true,
  });
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Webhook deliveries, newest first</caption>
        <TableHead groups={table.getHeaderGroups()} />
        <TableBody rows={table.getRowModel().rows} testId="delivery-row" />
      </table>
    </div>
  );
}
