import type { ReactNode } from "react";

/** A record's fields as a labelled list on a detail page, two columns from tablet width up. */
export function DetailsList({ children }: { children: ReactNode }) {
  return <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">{children}</dl>;
}

/** One labelled value of a detail page's `<dl>` (a DetailsList or a grid of its own). */
export function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}
