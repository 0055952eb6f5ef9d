"use client";

import type { RecoveryProgress } from "@/lib/webhooks/recovery";
import { DateTime } from "../_components/date-time";
import { AutoRefresh } from "../deliveries/auto-refresh";

/**
 * The integration's latest recovery: while redeliveries still run, how far it got (the page refreshes itself);
 * once none runs, how it ended.
 */
export function RecoveryProgressNote({ recovery }: { recovery: RecoveryProgress }) {
  const finished = recovery.running === 0;
  return (
    <div role="status" className="text-sm text-slate-800" data-testid="recovery-progress" data-state={finished ? "finished" : "running"}>
      <p>
        {finished ? "Recovery finished" : "Recovery running"} (started <DateTime iso={recovery.createdAt} />): {recovery.done} done,{" "}
        {recovery.failed} failed, {recovery.running} queued of {recovery.queued}.
      </p>
      {!finished && (
        <>
          <progress
            className="mt-1 h-2 w-full max-w-xs"
            max={recovery.queued}
            value={recovery.done + recovery.failed}
            aria-label={`Recovery of ${recovery.queued} deliveries`}
          />
          <AutoRefresh active />
        </>
      )}
    </div>
  );
}
