export default function Loading() {
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
