"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { SummaryGroupRow } from "@/lib/analytics/summary-schemas";
import { formatCount, formatMoney } from "@/lib/dashboard/format";
import { DataTable } from "../_components/data-table";

const column = createColumnHelper<SummaryGroupRow>();

function figureColumns(currency: string) {
  const number = (id: "orders" | "tickets" | "refunded_orders", header: string) =>
    column.accessor(id, { header, meta: { align: "right" }, cell: (c) => <span className="tabular-nums">{formatCount(c.getValue())}</span> });
  const money = (id: "revenue" | "refunded_amount", header: string) =>
    column.accessor(id, {
      header,
      meta: { align: "right" },
      cell: (c) => <span className="tabular-nums">{formatMoney(c.getValue(), currency)}</span>,
    });
  return [number("orders", "Orders"), number("tickets", "Tickets"), money("revenue", "Revenue"), number("refunded_orders", "Refunded"), money("refunded_amount", "Refunded amount")];
}

/** The exact figures behind the charts or a breakdown, one row per bucket or group. */
export function SummaryTable({
  rows,
  currency,
  header,
  caption,
  testId,
}: {
  rows: SummaryGroupRow[];
  currency: string;
  header: string;
  caption: string;
  testId: string;
}) {
  const columns = [column.accessor("label", { header }), ...figureColumns(currency)];
  return <DataTable data={rows} columns={columns} getRowId={(row) => row.key} caption={caption} testId={testId} scrollLabel={caption} maxHeightClass="max-h-80" />;
}
