/**
 * The placeholder a list page shows while it loads. Only leaf sections use it as their loading.tsx: a
 * loading boundary above a detail page would stream its 404 with status 200.
 */
export function PageSkeleton() {
  return (
    <div role="status" className="mx-auto max-w-6xl animate-pulse space-y-6">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-48 rounded bg-slate-200" />
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="h-24 rounded-xl bg-slate-200" />
        <div className="h-24 rounded-xl bg-slate-200" />
        <div className="h-24 rounded-xl bg-slate-200" />
      </div>
      <div className="h-56 rounded-xl bg-slate-200" />
    </div>
  );
}
