"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { TicketType } from "@/lib/catalog/ticket-type-schemas";
import { formatCount, formatDateTime, formatMoney } from "@/lib/dashboard/format";
import { DataTable } from "../../_components/data-table";
import { TicketTypeActions } from "./ticket-type-actions";

const column = createColumnHelper<TicketType>();

const columns = [
  column.accessor("name", { header: "Name", cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
  column.accessor("category", { header: "Category" }),
  column.accessor("price", {
    header: "Price",
    cell: (c) => <span className="whitespace-nowrap tabular-nums">{formatMoney(c.getValue(), c.row.original.currency)}</span>,
  }),
  column.accessor("vat", { header: "VAT", cell: (c) => <span className="tabular-nums">{c.getValue()}%</span> }),
  column.accessor("quantity_sold", {
    header: "Sold",
    cell: (c) => (
      <span className="whitespace-nowrap tabular-nums">
        {formatCount(c.getValue())} / {formatCount(c.row.original.quantity_total)}
      </span>
    ),
  }),
  column.accessor("status", {
    header: "Status",
    cell: (c) => (
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-800">
        {c.getValue().replace("_", " ")}
      </span>
    ),
  }),
  column.accessor("sale_starts_at", {
    header: "On sale",
    cell: (c) => (
      <span className="text-xs whitespace-nowrap">
        {formatDateTime(c.getValue())} –<br />
        {formatDateTime(c.row.original.sale_ends_at)}
      </span>
    ),
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: (c) => <TicketTypeActions ticketType={c.row.original} />,
  }),
];

/** An event's ticket types: a short list, shown whole; `readOnly` without row actions. */
export function TicketTypesTable({ ticketTypes, readOnly }: { ticketTypes: TicketType[]; readOnly: boolean }) {
  if (ticketTypes.length === 0) {
    return <p className="px-4 py-6 text-sm text-slate-600">No ticket types yet. Add one below to sell tickets.</p>;
  }
  return (
    <DataTable
      data={ticketTypes}
      columns={columns}
      getRowId={(row) => row.id}
      caption="Ticket types of this event"
      testId="ticket-type-row"
      scrollLabel="Ticket types"
      readOnly={readOnly}
    />
  );
}
