"use client";

import type { FormState } from "@/lib/dashboard/forms";
import { SubmitButton } from "../_components/form-controls";
import { useFormAction } from "../_components/notices";
import { setRetryScheduleAction } from "./actions";

const SCHEDULES = {
  immediate: "At once (default)",
  nominal: "Spaced: 5 s doubling, up to 5 min",
};

/** One webhook's retry schedule: failed deliveries retried at once, or each retry waiting for its scheduled time. */
export function RetryScheduleForm({ integration }: { integration: { id: string; url: string; retrySchedule: string } }) {
  const [state, action] = useFormAction<FormState>(setRetryScheduleAction, {});
  const selectId = `retry-schedule-${integration.id}`;
  return (
    <form action={action} className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="id" value={integration.id} />
      <label htmlFor={selectId} className="block w-full min-w-0 text-sm sm:w-auto sm:flex-1">
        <span className="block break-all font-medium text-slate-800">{integration.url}</span>
        {/* Keyed by the saved value: React resets the form after the action, and a select kept from before
            the save would fall back to the schedule it was first rendered with. */}
        <select
          key={integration.retrySchedule}
          id={selectId}
          name="retry_schedule"
          defaultValue={integration.retrySchedule}
          className="mt-1 block w-full rounded-md border border-slate-400 px-2 py-1.5 text-sm"
        >
          {Object.entries(SCHEDULES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <SubmitButton pendingLabel="Saving…">Save</SubmitButton>
      {/* Success is announced once, by the layout's notice (useFormAction); only a refusal shows here. */}
      {state.error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {state.error}
        </p>
      )}
    </form>
  );
}
