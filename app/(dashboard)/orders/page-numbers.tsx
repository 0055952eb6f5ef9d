import Link from "next/link";

const linkClasses =
  "inline-flex min-h-9 min-w-9 items-center justify-center rounded-md border px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

/** The page numbers shown: the first, the last, and two either side of the current one, with gaps as null. */
export function pageWindow(current: number, pages: number): (number | null)[] {
  const shown = new Set([1, pages, current - 2, current - 1, current, current + 1, current + 2].filter((p) => p >= 1 && p <= pages));
  const sorted = [...shown].sort((a, b) => a - b);
  return sorted.flatMap((page, index) => (index > 0 && page - sorted[index - 1]! > 1 ? [null, page] : [page]));
}

/** First / previous / numbered / next / last page links under the orders table (1-based pages). */
export function PageNumbers({ current, pages, href }: { current: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  const edge = (page: number, label: string, disabled: boolean) =>
    disabled ? (
      <span className={`${linkClasses} border-slate-200 text-slate-400`} aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link href={href(page)} className={`${linkClasses} border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}>
        {label}
      </Link>
    );
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-center gap-1 border-t border-slate-200 px-4 py-3">
      {edge(1, "First page", current === 1)}
      {edge(current - 1, "Previous page", current === 1)}
      {pageWindow(current, pages).map((page, index) =>
        page === null ? (
          <span key={`gap-${index}`} className="px-1 text-slate-600" aria-hidden="true">
            …
          </span>
        ) : (
          <Link
            key={page}
            href={href(page)}
            aria-label={`Page ${page}`}
            aria-current={page === current ? "page" : undefined}
            className={`${linkClasses} ${page === current ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"}`}
          >
            {page}
          </Link>
        ),
      )}
      {edge(current + 1, "Next page", current === pages)}
      {edge(pages, "Last page", current === pages)}
    </nav>
  );
}
