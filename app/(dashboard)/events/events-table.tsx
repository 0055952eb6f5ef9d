"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import type { EventStatus } from "@/db/schema";
import type { EventListRow, EventSort } from "@/lib/dashboard/events";
import type { SortLinks } from "@/lib/dashboard/paging";
import { DataTable } from "../_components/data-table";
import { EventActions } from "./event-actions";
import { DateTime } from "../_components/date-time";
import { formatCount } from "@/lib/dashboard/format";

const STATUS_CLASSES: Record<EventStatus | "ended", string> = {
  draft: "bg-slate-200 text-slate-800",
  published: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-red-100 text-red-900",
  ended: "bg-slate-700 text-white",
};

/** The event's state as people read it: a draft or published event whose end has passed has "ended". */
export function StatusBadge({ status, ended }: { status: EventStatus; ended: boolean }) {
  const shown = ended && status !== "cancelled" ? "ended" : status;
  return (
    <span data-testid="event-status" className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${STATUS_CLASSES[shown]}`}>
      {shown}
    </span>
  );
}


const column = createColumnHelper<EventListRow>();

const columns = [
  column.accessor("name", {
    header: "Name",
    meta: { sort: "name" satisfies EventSort },
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
  column.accessor("status", { header: "Status", meta: { sort: "status" satisfies EventSort }, cell: (c) => <StatusBadge status={c.getValue()} ended={c.row.original.ended} /> }),
  column.accessor("startsAt", { header: "Starts", meta: { sort: "starts_at" satisfies EventSort }, cell: (c) => <DateTime iso={c.getValue()} /> }),
  column.accessor("sold", {
    header: "Tickets sold",
    cell: (c) => (
      <span className="whitespace-nowrap tabular-nums">
        {formatCount(c.getValue())} / {formatCount(c.row.original.total)}
      </span>
    ),
  }),
  column.accessor("createdAt", { header: "Created", meta: { sort: "created" satisfies EventSort }, cell: (c) => <DateTime iso={c.getValue()} /> }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => <EventActions event={c.row.original} />,
  }),
];

/** One page of events, already filtered, sorted and paged by the server (the URL holds those); `readOnly` without row actions. */
export function EventsTable({ events, sortLinks, readOnly }: { events: EventListRow[]; sortLinks: SortLinks<EventSort>; readOnly: boolean }) {
  return (
    <DataTable
      data={events}
      columns={columns}
      getRowId={(row) => row.id}
      caption="Events of your organization"
      testId="event-row"
      sortLinks={sortLinks}
      readOnly={readOnly}
    />
  );
}
