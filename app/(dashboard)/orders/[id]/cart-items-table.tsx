"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { formatMoney } from "@/lib/dashboard/format";
import type { TransactionOrder } from "@/lib/orders/transaction-order";
import { DataTable } from "../../_components/data-table";

type CartItem = TransactionOrder["cart"]["items"][number];

const column = createColumnHelper<CartItem>();

function columnsFor(currency: string) {
  return [
    column.accessor("name", { header: "Item", cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
    column.accessor("category", { header: "Category" }),
    column.accessor("quantity", { header: "Qty", meta: { align: "right" }, cell: (c) => <span className="tabular-nums">{c.getValue()}</span> }),
    column.accessor("price", {
      header: "Unit price",
      meta: { align: "right" },
      cell: (c) => <span className="whitespace-nowrap tabular-nums">{formatMoney(c.getValue(), currency)}</span>,
    }),
    column.accessor("vat", { header: "VAT", meta: { align: "right" }, cell: (c) => <span className="tabular-nums">{c.getValue()}%</span> }),
  ];
}

/** An order's cart, in the order it was bought (a few lines; not paged). */
export function CartItemsTable({ items, currency, orderNumber }: { items: CartItem[]; currency: string; orderNumber: number }) {
  return (
    <DataTable
      data={items}
      columns={columnsFor(currency)}
      // Cart lines have no id of their own; their position is stable for one order.
      getRowId={(_row, index) => String(index)}
      caption={`Items of order #${orderNumber}`}
      testId="cart-item"
      scrollLabel="Cart items"
    />
  );
}
