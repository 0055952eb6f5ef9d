"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const INTERVAL_MS = 3000;

/** Re-renders the page from the server every few seconds while deliveries on it are still running. */
export function AutoRefresh({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active, router]);
  return active ? (
    <p className="text-xs text-slate-600">
      Deliveries in progress: this page updates itself.
    </p>
  ) : null;
}
