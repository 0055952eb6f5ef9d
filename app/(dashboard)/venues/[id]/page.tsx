import type { Metadata } from "next";
import { getVenue } from "@/lib/catalog/venues";
import { requireSession } from "@/lib/dashboard/session";
import { orNotFound } from "@/lib/dashboard/not-found";
import { VenueForm } from "../venue-form";
import { Card } from "../../_components/card";
import { DetailHeader } from "../../_components/detail-header";

export const metadata: Metadata = { title: "Edit venue · Ticketing analytics" };

export default async function VenuePage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession("read");
  const { id } = await params;
  // Unknown, deleted and foreign venues are all "not found".
  const venue = await orNotFound(getVenue(session.organizationId, id));
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <DetailHeader
        back={{ href: "/venues", label: "Venues" }}
        title={venue.name}
        subtitle={`${venue.address.street}, ${venue.address.postal_code} ${venue.address.city}, ${venue.address.country}`}
      />
      <Card labelledBy="edit-heading" padded>
        <h2 id="edit-heading" className="mb-4 text-base font-semibold">
          Edit venue
        </h2>
        <VenueForm venue={venue} />
      </Card>
    </div>
  );
}
