"use client";

import type { TicketType } from "@/lib/catalog/ticket-type-schemas";
import { formatAmountInput, toDateTimeLocal } from "@/lib/dashboard/format";
import { FormOutcome, SubmitButton, TextField, UtcWindowFields } from "../../_components/form-controls";
import { createTicketTypeAction, updateTicketTypeAction, type EventFormState } from "../actions";
import { useFormAction } from "../../_components/notices";

/** Adds a ticket type to the event, or edits `ticketType` when given. Times are typed and shown in UTC. */
export function TicketTypeForm({ eventId, currency, ticketType }: { eventId: string; currency: string; ticketType?: TicketType }) {
  const [state, action] = useFormAction<EventFormState>(ticketType ? updateTicketTypeAction : createTicketTypeAction, {});
  const errors = state.fieldErrors ?? {};
  // After an error the user's input; otherwise, when editing, what is stored.
  const value = (name: string, stored: string | undefined) => state.values?.[name] ?? stored;
  const sold = ticketType?.quantity_sold ?? 0;
  return (
    <form action={action} noValidate className="space-y-4" key={state.saved && !ticketType ? state.saved.id : "form"}>
      <FormOutcome
        saved={state.saved && (ticketType ? "Saved." : `Ticket type “${state.saved.name}” added.`)}
        error={Object.keys(errors).length ? undefined : state.error}
      />
      <input type="hidden" name="event_id" value={eventId} />
      {ticketType && <input type="hidden" name="id" value={ticketType.id} />}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <TextField label="Name" name="name" maxLength={200} defaultValue={value("name", ticketType?.name)} error={errors.name} required />
        <TextField
          // Editing sends only what is filled in, so an emptied category keeps the stored one.
          label={ticketType ? "Category" : "Category (optional)"}
          name="category"
          maxLength={100}
          defaultValue={value("category", ticketType?.category)}
          error={errors.category}
        />
        <TextField
          label={`Price (${currency})`}
          name="price"
          inputMode="decimal"
          defaultValue={value("price", ticketType && formatAmountInput(ticketType.price, currency))}
          error={errors.price}
          required
        />
        <TextField
          label="Tickets on offer"
          name="quantity_total"
          type="number"
          inputMode="numeric"
          min={sold}
          hint={sold > 0 ? `${sold.toLocaleString("en-GB")} already sold; cannot go lower` : undefined}
          defaultValue={value("quantity_total", ticketType && String(ticketType.quantity_total))}
          error={errors.quantity_total}
          required
        />
        <TextField
          label={ticketType ? "VAT %" : "VAT % (optional)"}
          name="vat"
          inputMode="decimal"
          defaultValue={value("vat", ticketType && String(ticketType.vat))}
          error={errors.vat}
        />
        <span className="hidden lg:block" />
        <UtcWindowFields
          start={{
            label: "Sale starts (UTC)",
            name: "sale_starts_at",
            hint: "In UTC",
            value: value("sale_starts_at", ticketType && toDateTimeLocal(ticketType.sale_starts_at)),
          }}
          end={{
            label: "Sale ends (UTC)",
            name: "sale_ends_at",
            hint: "In UTC, after the start",
            value: value("sale_ends_at", ticketType && toDateTimeLocal(ticketType.sale_ends_at)),
          }}
          errors={errors}
        />
      </div>
      {ticketType ? (
        <SubmitButton pendingLabel="Saving…">Save changes</SubmitButton>
      ) : (
        <SubmitButton pendingLabel="Adding…">Add ticket type</SubmitButton>
      )}
    </form>
  );
}
