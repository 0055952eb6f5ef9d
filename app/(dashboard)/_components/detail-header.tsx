import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The top of a detail page: a link back to its list, the record's name as the page heading with an
 * optional status badge, a line about it, and actions on the right.
 */
export function DetailHeader({
  back,
  title,
  badge,
  subtitle,
  actions,
}: {
  back: { href: string; label: string };
  title: ReactNode;
  badge?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div>
      <Link href={back.href} className="text-sm text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700">
        ← {back.label}
      </Link>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold break-words">{title}</h1>
            {badge}
          </div>
          {subtitle && <div className="text-sm text-slate-600">{subtitle}</div>}
        </div>
        {actions}
      </div>
    </div>
  );
}
