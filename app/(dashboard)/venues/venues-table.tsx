"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { Venue } from "@/lib/catalog/venue-schemas";
import { formatDateTime } from "@/lib/dashboard/format";
import { TableBody, TableHead } from "../_components/table-sections";
import { VenueActions } from "./venue-actions";

const column = createColumnHelper<Venue>();

const columns = [
  column.accessor("name", { header: "Name", cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
  column.accessor("address", {
    header: "Address",
    cell: (c) => {
      const a = c.getValue();
      return `${a.street}, ${a.postal_code} ${a.city}, ${a.country}`;
    },
  }),
  column.accessor("capacity", { header: "Capacity", cell: (c) => <span className="tabular-nums">{c.getValue().toLocaleString("en-GB")}</span> }),
  column.accessor("created_at", {
    header: "Created",
    cell: (c) => (
      <time dateTime={c.getValue()} className="whitespace-nowrap">
        {formatDateTime(c.getValue())}
      </time>
    ),
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => <VenueActions venue={c.row.original} />,
  }),
];

export function VenuesTable({ venues }: { venues: Venue[] }) {
  // TanStack Table v8 returns unstable functions by design; React Compiler then leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: venues, columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => row.id });
  if (venues.length === 0) {
    return <p className="px-4 py-6 text-sm text-slate-600">No venues yet. Create one below, then add events at it.</p>;
  }
  return (
    // Focusable so keyboard users can scroll the table sideways on narrow screens.
    <div className="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-700" tabIndex={0} role="region" aria-label="Venues, scrollable">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Venues of your organization</caption>
        <TableHead groups={table.getHeaderGroups()} />
        <TableBody rows={table.getRowModel().rows} testId="venue-row" />
      </table>
    </div>
  );
}
