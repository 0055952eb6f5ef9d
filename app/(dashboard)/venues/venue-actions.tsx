"use client";

import Link from "next/link";
import { buttonClasses } from "../_components/button-classes";
import { ConfirmAction, deleteWording } from "../_components/confirm-button";
import { deleteVenueAction } from "./actions";

/** Edit and delete for one venue. */
export function VenueActions({ venue }: { venue: { id: string; name: string } }) {
  return (
    // A fixed width keeps a refusal readable instead of squeezed into the narrow column of two buttons.
    <div className="flex w-56 flex-wrap items-start gap-2">
      <Link href={`/venues/${venue.id}`} className={buttonClasses.secondary}>
        Edit<span className="sr-only"> {venue.name}</span>
      </Link>
      <ConfirmAction {...deleteWording("venue", venue.name)} serverAction={deleteVenueAction} fields={{ id: venue.id }}>
        The venue disappears from the dashboard and the API. A venue where an event still takes place cannot be
        deleted; delete or move its events first.
      </ConfirmAction>
    </div>
  );
}
