"use client";

import { useId } from "react";
import { FieldError } from "../_components/form-controls";

const EVENT_HINTS: Record<string, string> = {
  OrderCompleted: "an order was completed; the body is the full order",
  OrderRefunded: "an order was refunded (also by cancelling or deleting its event); the body is the order",
};

/** The events checkboxes of the create and edit forms; `checked` null means a new integration (OrderCompleted only). */
export function EventPicker({ eventTypes, checked, error }: { eventTypes: readonly string[]; checked: readonly string[] | null; error?: string }) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <div className="mt-2 space-y-2">
        {eventTypes.map((event) => (
          <label key={event} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="events"
              value={event}
              defaultChecked={checked ? checked.includes(event) : event === "OrderCompleted"}
              className="mt-0.5 h-4 w-4 rounded border-slate-400"
            />
            <span>
              <code className="font-mono">{event}</code>
              <span className="block text-xs text-slate-600">{EVENT_HINTS[event]}</span>
            </span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
