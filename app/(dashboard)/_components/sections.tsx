import type { ReactNode } from "react";
import { PageNav } from "./page-nav";
import { Card } from "./card";
import { formatCount } from "@/lib/dashboard/format";

interface ListSectionProps {
  /** Id of the section's heading, which labels the section. */
  id: string;
  title: ReactNode;
  /** The count line, beside the heading; `countLive` announces its changes to screen readers. */
  count: ReactNode;
  countTestId: string;
  countLive?: boolean;
  /** Links or buttons after the count line (an export, say). */
  actions?: ReactNode;
  /** What to say instead of the table when the page has no rows. */
  emptyText: ReactNode;
  rowCount: number;
  /** The page links under the table. */
  nav: ReactNode;
  /** The table of the page's rows. */
  children: ReactNode;
}

/** A card with one server-paged page of a list: heading, count and actions, the table or an empty state, and page links. */
export function ListSection(props: ListSectionProps) {
  const { id, title, count, countTestId, countLive = false, actions, emptyText, rowCount, nav, children } = props;
  return (
    <Card labelledBy={id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-600" role={countLive ? "status" : undefined} data-testid={countTestId}>
            {count}
          </p>
          {actions}
        </div>
      </div>
      {rowCount === 0 ? <p className="px-4 py-6 text-sm text-slate-600">{emptyText}</p> : children}
      {nav}
    </Card>
  );
}

interface PagedListSectionProps {
  id: string;
  title: ReactNode;
  /** How many rows the list has in all, with an optional note after it. */
  total: number;
  totalNote?: string;
  countTestId: string;
  /** What to say when the page has no rows: the list is empty, or the page is past its end. */
  emptyText: string;
  pastEndText: string;
  rowCount: number;
  paging: { page: number; pages: number; previous: string | null; next: string | null };
  children: ReactNode;
}

/** A ListSection counted "N in total", paged by previous / next links. */
export function PagedListSection(props: PagedListSectionProps) {
  const { total, totalNote, emptyText, pastEndText, paging, ...section } = props;
  return (
    <ListSection
      {...section}
      count={`${formatCount(total)} in total${totalNote ? `, ${totalNote}` : ""}`}
      emptyText={total > 0 ? pastEndText : emptyText}
      nav={
        <PageNav previous={paging.previous} next={paging.next}>
          Page {paging.page} of {paging.pages}
        </PageNav>
      }
    />
  );
}

/** A card holding one form (create a key, add a webhook, …) under its heading. */
export function FormSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <Card labelledBy={id} padded>
      <h2 id={id} className="mb-4 text-base font-semibold">
        {title}
      </h2>
      {children}
    </Card>
  );
}
