"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { formatDay, formatMoney } from "@/lib/dashboard/format";
import type { DailySales, TopEvent } from "@/lib/dashboard/overview";
import { DataTable } from "../_components/data-table";

const count = (n: number) => n.toLocaleString("en-GB");

/** Orders and revenue columns, shared by both tables; revenue in the organization's currency. */
function figureColumns<T extends { orders: number; revenue: number }>(currency: string) {
  const column = createColumnHelper<T>();
  return [
    column.accessor((row) => row.orders, {
      id: "orders",
      header: "Orders",
      meta: { align: "right" },
      cell: (c) => <span className="tabular-nums">{count(c.getValue())}</span>,
    }),
    column.accessor((row) => row.revenue, {
      id: "revenue",
      header: "Revenue",
      meta: { align: "right" },
      cell: (c) => <span className="tabular-nums">{formatMoney(c.getValue(), currency)}</span>,
    }),
  ];
}

const topEvent = createColumnHelper<TopEvent>();
const day = createColumnHelper<DailySales>();

/** The period's best-selling events, as the server ranked them (a handful; not paged). */
export function TopEventsTable({ events, currency }: { events: TopEvent[]; currency: string }) {
  const columns = [topEvent.accessor("name", { header: "Event" }), ...figureColumns<TopEvent>(currency)];
  return (
    <DataTable data={events} columns={columns} getRowId={(row) => row.eventId} caption="Top events by revenue" testId="top-event" />
  );
}

/** The days of the period that had orders, oldest first; the list scrolls under its header. */
export function DailyFiguresTable({ days, currency }: { days: DailySales[]; currency: string }) {
  const columns = [
    day.accessor("day", { header: "Day", cell: (c) => formatDay(c.getValue()) }),
    ...figureColumns<DailySales>(currency),
  ];
  return (
    <DataTable
      data={days}
      columns={columns}
      getRowId={(row) => row.day}
      caption="Orders and revenue per day"
      testId="daily-figures"
      scrollLabel="Daily figures"
      maxHeightClass="max-h-80"
    />
  );
}
