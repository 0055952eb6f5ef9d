import type { ReactNode } from "react";

/** One labelled value of a detail page's `<dl>`. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}
