"use client";

import Link, { useLinkStatus } from "next/link";
import type { ComponentProps } from "react";

/** A spinner inside a link while its page is on its way; a placeholder of the same size otherwise, so nothing shifts. */
export function LinkPending({ className = "border-slate-400 border-t-white" }: { className?: string }) {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      data-pending={pending || undefined}
      className={`size-3 shrink-0 rounded-full border-2 ${className} ${pending ? "animate-spin" : "invisible"}`}
    />
  );
}

/** A link that shows it is loading after a click (the period switch, say): its page has no loading screen. */
export function PendingLink({ children, className = "", ...props }: ComponentProps<typeof Link>) {
  return (
    <Link {...props} className={`inline-flex items-center gap-1.5 ${className}`}>
      {children}
      <LinkPending className="border-slate-300 border-t-blue-700" />
    </Link>
  );
}
