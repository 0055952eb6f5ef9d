import { formatDateTime } from "@/lib/dashboard/format";

/** A timestamp as the dashboard shows it (UTC), kept on one line, machine-readable in `dateTime`; a dash when there is none. */
export function DateTime({ iso, seconds = false }: { iso: string | null | undefined; seconds?: boolean }) {
  if (!iso) return <span className="text-slate-600">–</span>;
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {formatDateTime(iso, seconds)}
    </time>
  );
}
