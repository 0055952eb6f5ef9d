"use client";

import { getCoreRowModel, useReactTable, type Row, type RowData, type TableOptions } from "@tanstack/react-table";
import type { ReactNode } from "react";
import type { SortLinks } from "@/lib/dashboard/paging";
import { TableBody, TableBodyWithDetails, TableHead } from "./table-sections";

/**
 * A dashboard table of rows the server has already filtered, sorted and paged (the URL holds those), or of a
 * small fixed list. TanStack Table only lays out columns and cells here.
 */
export function DataTable<T extends RowData>({
  data,
  columns,
  getRowId,
  caption,
  testId,
  sortLinks,
  rowClassName,
  scrollLabel,
  maxHeightClass,
  readOnly = false,
  rowDetails,
}: {
  data: T[];
  columns: TableOptions<T>["columns"];
  getRowId: (row: T, index: number) => string;
  /** Read by screen readers only: what the table lists. */
  caption: string;
  /** Marks each body row for the end-to-end tests. */
  testId: string;
  sortLinks?: SortLinks;
  rowClassName?: (row: Row<T>) => string | undefined;
  /** Makes the scroll area a named, focusable region, so keyboard users can scroll a wide table sideways. */
  scrollLabel?: string;
  /** Limits the height (a Tailwind class such as "max-h-80"); the rows then scroll under a sticky header. */
  maxHeightClass?: string;
  /** Leaves out the row-actions column (id "actions") for a role that may not act on the rows. */
  readOnly?: boolean;
  /** A full-width row under each row (its controls, say); each row and its details then form one `testId` tbody. */
  rowDetails?: (row: T) => ReactNode;
}) {
  // TanStack Table v8 returns unstable functions by design; React Compiler then leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId,
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    state: { columnVisibility: { actions: !readOnly } },
  });
  const region = scrollLabel
    ? { tabIndex: 0, role: "region", "aria-label": `${scrollLabel}, scrollable` }
    : {};
  return (
    // "relative" keeps the screen-reader-only labels (absolutely positioned) inside the scroll area.
    <div
      className={`relative focus-visible:outline-2 focus-visible:outline-blue-700 ${maxHeightClass ? `overflow-auto ${maxHeightClass}` : "overflow-x-auto"}`}
      {...region}
    >
      <table className="stacked-table w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <TableHead groups={table.getHeaderGroups()} sortLinks={sortLinks} sticky={Boolean(maxHeightClass)} />
        {rowDetails ? (
          <TableBodyWithDetails rows={table.getRowModel().rows} testId={testId} rowClassName={rowClassName} details={rowDetails} />
        ) : (
          <TableBody rows={table.getRowModel().rows} testId={testId} rowClassName={rowClassName} />
        )}
      </table>
    </div>
  );
}
