import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClasses } from "./button-classes";

/** Previous / next links under a server-paged table; nothing when the list fits on one page. */
export function PageNav({ previous, next, children }: { previous: string | null; next: string | null; children?: ReactNode }) {
  if (!previous && !next) return null;
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t border-slate-200 px-4 py-3">
      {previous ? (
        <Link href={previous} className={buttonClasses.secondary}>
          Previous page
        </Link>
      ) : (
        <span />
      )}
      {children && <span className="text-sm text-slate-600">{children}</span>}
      {next ? (
        <Link href={next} className={buttonClasses.secondary}>
          Next page
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
