"use client";

import Link from "next/link";
import type { FormState } from "@/lib/dashboard/forms";
import { buttonClasses } from "../_components/button-classes";
import { ActionError, ConfirmButton } from "../_components/confirm-button";
import { deleteVenueAction } from "./actions";
import { useFormAction } from "../_components/notices";

/** Edit and delete for one venue. */
export function VenueActions({ venue }: { venue: { id: string; name: string } }) {
  const [state, action, pending] = useFormAction<FormState>(deleteVenueAction, {});
  return (
    // A fixed width keeps a refusal readable instead of squeezed into the narrow column of two buttons.
    <div className="flex w-56 flex-wrap items-start gap-2">
      <Link href={`/venues/${venue.id}`} className={buttonClasses.secondary}>
        Edit<span className="sr-only"> {venue.name}</span>
      </Link>
      <ConfirmButton
        label="Delete"
        target={venue.name}
        title={`Delete “${venue.name}”?`}
        confirmLabel="Delete venue"
        pendingLabel="Deleting…"
        pending={pending}
        cancelLabel="Keep venue"
        action={action}
        fields={{ id: venue.id }}
      >
        The venue disappears from the dashboard and the API. A venue where an event still takes place cannot be
        deleted; delete or move its events first.
      </ConfirmButton>
      <ActionError message={state.error} />
    </div>
  );
}
