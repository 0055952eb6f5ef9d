"use client";

import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { formatMoney } from "@/lib/dashboard/format";
import type { SortLinks } from "@/lib/dashboard/paging";
import { DataTable } from "../_components/data-table";
import { TruncatedText } from "../_components/table-sections";
import { DateTime } from "../_components/date-time";

export interface OrderListRow {
  uuid: string;
  orderNumber: number;
  createdAt: string;
  customerName: string;
  email: string;
  eventName: string;
  total: number;
  currency: string;
  isRefunded: boolean;
}

const column = createColumnHelper<OrderListRow>();

const columns = [
  column.accessor("orderNumber", {
    header: "Order",
    cell: (c) => (
      <Link
        href={`/orders/${c.row.original.uuid}`}
        className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        #{c.getValue()}
      </Link>
    ),
  }),
  column.accessor("createdAt", {
    header: "Date",
    meta: { sort: "date" },
    cell: (c) => <DateTime iso={c.getValue()} />,
  }),
  column.accessor("customerName", { header: "Customer", meta: { sort: "customer_name" } }),
  column.accessor("email", { header: "Email", cell: (c) => <TruncatedText text={c.getValue()} /> }),
  column.accessor("eventName", { header: "Event" }),
  column.accessor("total", {
    header: "Total",
    meta: { sort: "price" },
    cell: (c) => (
      <span className="whitespace-nowrap tabular-nums">{formatMoney(c.getValue(), c.row.original.currency)}</span>
    ),
  }),
  column.accessor("isRefunded", {
    header: "Status",
    cell: (c) =>
      c.getValue() ? (
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Refunded</span>
      ) : (
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">Paid</span>
      ),
  }),
];

export function OrdersTable({ orders, sortLinks }: { orders: OrderListRow[]; sortLinks: SortLinks }) {
  return (
    <DataTable
      data={orders}
      columns={columns}
      getRowId={(row) => row.uuid}
      caption="Orders matching the search"
      testId="order-row"
      sortLinks={sortLinks}
    />
  );
}
