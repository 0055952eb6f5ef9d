import type { DeliveryStatus } from "@/db/schema/webhooks";

const STYLES: Record<DeliveryStatus, string> = {
  Pending: "bg-slate-200 text-slate-800",
  InProgress: "bg-blue-100 text-blue-900",
  Success: "bg-emerald-100 text-emerald-900",
  Failed: "bg-amber-100 text-amber-900",
  PermanentlyFailed: "bg-red-100 text-red-900",
};

const LABELS: Record<DeliveryStatus, string> = {
  Pending: "Pending",
  InProgress: "In progress",
  Success: "Success",
  Failed: "Failed, retrying",
  PermanentlyFailed: "Permanently failed",
};

export function StatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STYLES[status]}`}
      data-status={status}
    >
      {LABELS[status]}
    </span>
  );
}
