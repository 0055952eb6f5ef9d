import Link from "next/link";
import type { DeliveryStatus } from "@/db/schema/webhooks";

const STYLES: Record<DeliveryStatus, string> = {
  Pending: "bg-slate-200 text-slate-800",
  InProgress: "bg-blue-100 text-blue-900",
  Success: "bg-emerald-100 text-emerald-900",
  Failed: "bg-amber-100 text-amber-900",
  PermanentlyFailed: "bg-red-100 text-red-900",
};

/** Statuses as people read them ("Permanently failed", not "PermanentlyFailed"). */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
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
      {DELIVERY_STATUS_LABELS[status]}
    </span>
  );
}

/** Marks a dashboard test delivery (sample order) wherever deliveries are listed. */
export function TestBadge() {
  return <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900">Test</span>;
}

/** The delivery's order as a link to its dashboard page; a dash for test deliveries and deleted orders. */
export function OrderLink({ uuid, number }: { uuid: string | null; number: number | null }) {
  if (!uuid || number === null) return <span className="text-slate-600">–</span>;
  return (
    <Link href={`/orders/${uuid}`} className="whitespace-nowrap text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700">
      Order #{number}
    </Link>
  );
}
