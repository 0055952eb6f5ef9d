"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cardClasses } from "./card";
import { sectionOf } from "./sections-list";

/** The dashboard's 404 page body: what happened and a way back to the section the address belongs to. */
export function NotFoundNotice() {
  const section = sectionOf(usePathname() ?? "");
  return (
    <div className={`mx-auto max-w-xl p-6 ${cardClasses}`} data-testid="not-found">
      <p className="text-sm font-medium text-slate-600">404</p>
      <h1 className="mt-1 text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-slate-700">
        Nothing is here: the address may be mistyped, or what it named was deleted or belongs to another organization.
      </p>
      <p className="mt-4">
        <Link href={section?.href ?? "/overview"} className="text-sm font-medium text-blue-800 underline underline-offset-2">
          ← Back to {section ? section.label.toLowerCase() : "the overview"}
        </Link>
      </p>
    </div>
  );
}
