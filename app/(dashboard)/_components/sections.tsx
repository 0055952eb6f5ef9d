import type { ReactNode } from "react";
import { PageNav } from "./page-nav";
import { Card } from "./card";

interface PagedListSectionProps {
  /** Id of the section's heading, which labels the section. */
  id: string;
  title: ReactNode;
  /** The count line: how many rows the list has in all, with an optional note after it. */
  total: number;
  totalNote?: string;
  countTestId: string;
  /** What to say when the page has no rows: the list is empty, or the page is past its end. */
  emptyText: string;
  pastEndText: string;
  rowCount: number;
  paging: { page: number; pages: number; previous: string | null; next: string | null };
  /** The table of the page's rows. */
  children: ReactNode;
}

/** A card with a server-paged list: heading and count, the table or an empty state, and page links. */
export function PagedListSection(props: PagedListSectionProps) {
  const { id, title, total, totalNote, countTestId, emptyText, pastEndText, rowCount, paging, children } = props;
  return (
    <Card labelledBy={id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        <p className="text-sm text-slate-600" data-testid={countTestId}>
          {total.toLocaleString("en-GB")} in total{totalNote ? `, ${totalNote}` : ""}
        </p>
      </div>
      {rowCount === 0 ? <p className="px-4 py-6 text-sm text-slate-600">{total > 0 ? pastEndText : emptyText}</p> : children}
      <PageNav previous={paging.previous} next={paging.next}>
        Page {paging.page} of {paging.pages}
      </PageNav>
    </Card>
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
