import { flexRender, type Cell, type HeaderGroup, type Row, type RowData } from "@tanstack/react-table";
import Link from "next/link";
import type { ReactNode } from "react";
import type { SortLinks } from "@/lib/dashboard/paging";

declare module "@tanstack/react-table" {
  // Declaration merging needs the library's exact type parameters, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The `?sort=` key of a column the server can sort by; its header becomes a link. */
    sort?: string;
    /** Numbers line up on the right. */
    align?: "right";
  }
}

const alignClass = (meta: { align?: "right" } | undefined) => (meta?.align === "right" ? "text-right" : "");

/**
 * The header rows of a dashboard table. Sorting runs on the server, so a sortable header is a link to
 * the sorted list, and `aria-sort` tells screen readers which column the rows are sorted by.
 */
export function TableHead<T extends RowData>({
  groups,
  sortLinks,
  sticky = false,
}: {
  groups: HeaderGroup<T>[];
  sortLinks?: SortLinks;
  /** Keeps the header in view while a height-limited table scrolls. */
  sticky?: boolean;
}) {
  return (
    <thead className={`bg-slate-50 text-slate-700 ${sticky ? "sticky top-0" : ""}`}>
      {groups.map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const sort = sortLinks && header.column.columnDef.meta?.sort;
            const active = sort !== undefined && sortLinks?.current.sort === sort;
            const direction = sortLinks?.current.order === "asc" ? "ascending" : "descending";
            const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            return (
              <th
                key={header.id}
                scope="col"
                className={`px-4 py-2 font-medium whitespace-nowrap ${alignClass(header.column.columnDef.meta)}`}
                aria-sort={active ? direction : undefined}
              >
                {sort && sortLinks ? (
                  <Link
                    href={sortLinks.hrefs[sort]!}
                    className="inline-flex items-center gap-1 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                  >
                    {label}
                    <span aria-hidden="true">{active ? (direction === "ascending" ? "▲" : "▼") : "↕"}</span>
                    <span className="sr-only">{active ? `, sorted ${direction}` : ", sort"}</span>
                  </Link>
                ) : (
                  label
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}

/** The body rows of a dashboard table; `testId` marks each row for the end-to-end tests. */
export function TableBody<T extends RowData>({
  rows,
  testId,
  rowClassName,
}: {
  rows: Row<T>[];
  testId: string;
  rowClassName?: (row: Row<T>) => string | undefined;
}) {
  return (
    <tbody className="divide-y divide-slate-100">
      {rows.map((row) => (
        <tr key={row.id} data-testid={testId} className={rowClassName?.(row)}>
          {row.getVisibleCells().map((cell) => (
            <BodyCell key={cell.id} cell={cell} className="px-4 py-2" />
          ))}
        </tr>
      ))}
    </tbody>
  );
}

/** Body rows each followed by a full-width row of details: one tbody per row, marked with `testId`. */
export function TableBodyWithDetails<T extends RowData>({
  rows,
  testId,
  rowClassName,
  details,
}: {
  rows: Row<T>[];
  testId: string;
  rowClassName?: (row: Row<T>) => string | undefined;
  details: (row: T) => ReactNode;
}) {
  return rows.map((row) => (
    <tbody key={row.id} data-testid={testId} className={`border-t border-slate-200 ${rowClassName?.(row) ?? ""}`}>
      <tr>
        {row.getVisibleCells().map((cell) => (
          <BodyCell key={cell.id} cell={cell} className="px-4 pt-3 pb-1" />
        ))}
      </tr>
      <tr>
        <td colSpan={row.getVisibleCells().length} className="px-4 pt-1 pb-3">
          {details(row.original)}
        </td>
      </tr>
    </tbody>
  ));
}

/**
 * One body cell. `data-label` holds its column's name for the stacked layout of a `stacked-table` on a
 * phone (app/globals.css); columns without a text header (row actions) get no label there.
 */
export function BodyCell<T extends RowData>({ cell, className }: { cell: Cell<T, unknown>; className: string }) {
  const header = cell.column.columnDef.header;
  return (
    <td data-label={typeof header === "string" ? header : undefined} className={`${className} align-top ${alignClass(cell.column.columnDef.meta)}`}>
      {flexRender(cell.column.columnDef.cell, cell.getContext())}
    </td>
  );
}

/** A long value (e-mail address, URL) on one line, cut with an ellipsis; hovering shows it whole, focusing unfolds it. */
export function TruncatedText({ text, className = "" }: { text: string; className?: string }) {
  return (
    <span
      title={text}
      tabIndex={0}
      className={`block max-w-full min-w-0 truncate focus:whitespace-normal focus:break-all focus-visible:outline-2 focus-visible:outline-blue-700 sm:max-w-xs ${className}`}
    >
      {text}
    </span>
  );
}
