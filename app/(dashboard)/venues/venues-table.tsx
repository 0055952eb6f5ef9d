"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { Venue } from "@/lib/catalog/venue-schemas";
import type { SortLinks } from "@/lib/dashboard/paging";
import type { VenueSort } from "@/lib/dashboard/venues";
import { DataTable } from "../_components/data-table";
import { VenueActions } from "./venue-actions";
import { DateTime } from "../_components/date-time";
import { formatCount } from "@/lib/dashboard/format";

const column = createColumnHelper<Venue>();

const columns = [
  column.accessor("name", {
    header: "Name",
    meta: { sort: "name" satisfies VenueSort },
    cell: (c) => <span className="font-medium">{c.getValue()}</span>,
  }),
  column.accessor("address", {
    header: "Address",
    cell: (c) => {
      const a = c.getValue();
      return `${a.street}, ${a.postal_code} ${a.city}, ${a.country}`;
    },
  }),
  column.accessor("capacity", {
    header: "Capacity",
    meta: { sort: "capacity" satisfies VenueSort },
    cell: (c) => <span className="tabular-nums">{formatCount(c.getValue())}</span>,
  }),
  column.accessor("created_at", {
    header: "Created",
    meta: { sort: "created" satisfies VenueSort },
    cell: (c) => <DateTime iso={c.getValue()} />,
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => <VenueActions venue={c.row.original} />,
  }),
];

/** One page of venues, already sorted and paged by the server (the URL holds page, size and sort); `readOnly` without row actions. */
export function VenuesTable({ venues, sortLinks, readOnly }: { venues: Venue[]; sortLinks: SortLinks<VenueSort>; readOnly: boolean }) {
  return (
    <DataTable
      data={venues}
      columns={columns}
      getRowId={(row) => row.id}
      caption="Venues of your organization"
      testId="venue-row"
      sortLinks={sortLinks}
      scrollLabel="Venues"
      readOnly={readOnly}
    />
  );
}
