"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import type { DeliveryRow, DeliverySort } from "@/lib/dashboard/deliveries";
import type { SortLinks } from "@/lib/dashboard/paging";
import { DataTable } from "../_components/data-table";
import { OrderLink, StatusBadge, TestBadge } from "./status-badge";
import { DateTime } from "../_components/date-time";

const column = createColumnHelper<DeliveryRow>();


const columns = [
  column.accessor("id", {
    header: "Delivery",
    cell: (c) => (
      <span className="flex flex-wrap items-center gap-2">
        <Link
          href={`/deliveries/${c.getValue()}`}
          className="font-mono text-xs text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          {c.getValue()}
        </Link>
        {c.row.original.test && <TestBadge />}
      </span>
    ),
  }),
  column.accessor("orderNumber", {
    header: "Order",
    cell: (c) => <OrderLink uuid={c.row.original.orderUuid} number={c.getValue()} />,
  }),
  column.accessor("integrationUrl", {
    header: "Integration",
    cell: (c) => (
      <span className="font-mono text-xs break-all">{c.getValue() ?? c.row.original.integrationId}</span>
    ),
  }),
  column.accessor("eventType", { header: "Event", cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  column.accessor("status", {
    header: "Status",
    meta: { sort: "status" satisfies DeliverySort },
    cell: (c) => <StatusBadge status={c.getValue()} />,
  }),
  column.accessor("attemptCount", {
    header: "Attempts",
    meta: { sort: "attempts" satisfies DeliverySort, align: "right" },
    cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
  }),
  column.accessor("nextRetryAt", { header: "Next retry", cell: (c) => <DateTime iso={c.getValue()} /> }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { sort: "created" satisfies DeliverySort },
    cell: (c) => <DateTime iso={c.getValue()} />,
  }),
];

/** One page of deliveries; filtering, sorting and paging happen on the server through the URL. */
export function DeliveriesTable({ deliveries, sortLinks }: { deliveries: DeliveryRow[]; sortLinks?: SortLinks<DeliverySort> }) {
  return (
    <DataTable
      data={deliveries}
      columns={columns}
      getRowId={(row) => row.id}
      caption="Webhook deliveries"
      testId="delivery-row"
      sortLinks={sortLinks}
    />
  );
}
