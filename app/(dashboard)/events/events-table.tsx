"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { formatDateTime } from "@/lib/dashboard/format";
import { TableBody, TableHead } from "../_components/table-sections";
import { EventActions } from "./event-actions";

export interface EventRow {
  id: string;
  name: string;
  venue: string;
  status: "draft" | "published" | "cancelled";
  startsAt: string;
  sold: number;
  total: number;
}

const STATUS_CLASSES: Record<EventRow["status"], string> = {
  draft: "bg-slate-200 text-slate-800",
  published: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-red-100 text-red-900",
};

export function StatusBadge({ status }: { status: EventRow["status"] }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${STATUS_CLASSES[status]}`}>{status}</span>
  );
}

const column = createColumnHelper<EventRow>();

const columns = [
  column.accessor("name", {
    header: "Name",
    cell: (c) => (
      <Link
        href={`/events/${c.row.original.id}`}
        className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {c.getValue()}
      </Link>
    ),
  }),
  column.accessor("venue", { header: "Venue" }),
  column.accessor("status", { header: "Status", cell: (c) => <StatusBadge status={c.getValue()} /> }),
  column.accessor("startsAt", {
    header: "Starts",
    cell: (c) => (
      <time dateTime={c.getValue()} className="whitespace-nowrap">
        {formatDateTime(c.getValue())}
      </time>
    ),
  }),
  column.accessor("sold", {
    header: "Tickets sold",
    cell: (c) => (
      <span className="whitespace-nowrap tabular-nums">
        {c.getValue().toLocaleString("en-GB")} / {c.row.original.total.toLocaleString("en-GB")}
      </span>
    ),
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => <EventActions event={c.row.original} />,
  }),
];

export function EventsTable({ events }: { events: EventRow[] }) {
  // TanStack Table v8 returns unstable functions by design; React Compiler then leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: events,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
  });
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Events of your organization</caption>
        <TableHead groups={table.getHeaderGroups()} />
        <TableBody rows={table.getRowModel().rows} testId="event-row" />
      </table>
    </div>
  );
}
