"use client";

import Link from "next/link";
import { useId } from "react";
import { toDateTimeLocal } from "@/lib/dashboard/format";
import { FieldError, FormOutcome, SubmitButton, TextField, UtcWindowFields } from "../_components/form-controls";
import { createEventAction, updateEventAction, type EventFormState } from "./actions";
import { useFormAction } from "../_components/notices";
import { inputClasses } from "../_components/input-classes";

export interface VenueOption {
  id: string;
  name: string;
}

export interface EventFormValues {
  id: string;
  name: string;
  description?: string;
  venueId: string;
  startsAt: string;
  endsAt: string;
}

/** Creates an event, or edits `event` when given. Times are typed and shown in UTC. */
export function EventForm({ venues, event }: { venues: VenueOption[]; event?: EventFormValues }) {
  const [state, action] = useFormAction<EventFormState>(event ? updateEventAction : createEventAction, {});
  const errors = state.fieldErrors ?? {};
  const values = state.values;
  const id = useId();
  if (venues.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        An event takes place at a venue.{" "}
        <Link href="/venues" className="text-blue-800 underline">
          Add a venue
        </Link>{" "}
        first.
      </p>
    );
  }
  const fallback = (name: string, value: string | undefined) => values?.[name] ?? value ?? "";
  return (
    <form action={action} noValidate className="space-y-4" key={state.saved && !event ? state.saved.id : "form"}>
      <FormOutcome
        saved={state.saved && (event ? "Saved." : `Event “${state.saved.name}” created as a draft.`)}
        error={Object.keys(errors).length ? undefined : state.error}
      />
      {event && <input type="hidden" name="id" value={event.id} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          maxLength={200}
          defaultValue={fallback("name", event?.name)}
          error={errors.name}
          required
        />
        <div>
          <label htmlFor={`${id}-venue`} className="block text-sm font-medium text-slate-800">
            Venue
          </label>
          <select
            // React restores a select's default only when it mounts: keyed by it, the venue chosen comes back after an error.
            key={fallback("venue_id", event?.venueId)}
            id={`${id}-venue`}
            name="venue_id"
            defaultValue={fallback("venue_id", event?.venueId)}
            aria-invalid={errors.venue_id ? true : undefined}
            aria-describedby={errors.venue_id ? `${id}-venue-error` : undefined}
            className={inputClasses(Boolean(errors.venue_id))}
          >
            <option value="">Choose a venue…</option>
            {venues.map((venue) => (
              <option key={venue.id} value={venue.id}>
                {venue.name}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-venue-error`} message={errors.venue_id} />
        </div>
        <UtcWindowFields
          start={{
            label: "Starts (UTC)",
            name: "starts_at",
            hint: "Date and time in UTC, not your local time",
            value: fallback("starts_at", event && toDateTimeLocal(event.startsAt)),
          }}
          end={{ label: "Ends (UTC)", name: "ends_at", hint: "Must be after the start, in UTC", value: fallback("ends_at", event && toDateTimeLocal(event.endsAt)) }}
          errors={errors}
        />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-slate-800">
          Description (optional)
        </label>
        <textarea
          id={`${id}-description`}
          name="description"
          rows={3}
          maxLength={5000}
          defaultValue={fallback("description", event?.description)}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description-error` : undefined}
          className={inputClasses(Boolean(errors.description))}
        />
        <FieldError id={`${id}-description-error`} message={errors.description} />
      </div>
      <SubmitButton pendingLabel={event ? "Saving…" : "Creating…"}>{event ? "Save changes" : "Create event"}</SubmitButton>
    </form>
  );
}
