"use client";

import Link from "next/link";
import type { TicketType } from "@/lib/catalog/ticket-type-schemas";
import { buttonClasses } from "../../_components/button-classes";
import { ConfirmAction, deleteWording } from "../../_components/confirm-button";
import { deleteTicketTypeAction } from "../actions";

/** Edit and delete for one ticket type; a cancelled one (or one of a cancelled event) can only be deleted. */
export function TicketTypeActions({ ticketType }: { ticketType: TicketType }) {
  return (
    // A fixed width keeps a refusal readable instead of squeezed into the narrow column of two buttons.
    <div className="flex w-56 flex-wrap items-start gap-2">
      {ticketType.status !== "cancelled" && (
        <Link href={`/events/${ticketType.event_id}/ticket-types/${ticketType.id}`} className={buttonClasses.secondary}>
          Edit<span className="sr-only"> {ticketType.name}</span>
        </Link>
      )}
      <ConfirmAction
        {...deleteWording("ticket type", ticketType.name)}
        serverAction={deleteTicketTypeAction}
        fields={{ event_id: ticketType.event_id, id: ticketType.id }}
      >
        The ticket type is removed for good. Once tickets of a type have been sold it cannot be deleted.
      </ConfirmAction>
    </div>
  );
}
