import type { Metadata } from "next";
import { can } from "@/lib/auth/permissions";
import { getVenue } from "@/lib/catalog/venues";
import { requireSession } from "@/lib/dashboard/session";
import { orNotFound } from "@/lib/dashboard/not-found";
import { VenueForm } from "../venue-form";
import { DateTime } from "../../_components/date-time";
import { DetailHeader } from "../../_components/detail-header";
import { DetailItem, DetailsList } from "../../_components/details-list";
import { FormSection } from "../../_components/sections";

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
      {can(session.role, "catalog") ? (
        <FormSection id="edit-heading" title="Edit venue">
          <VenueForm venue={venue} />
        </FormSection>
      ) : (
        <FormSection id="details-heading" title="Details">
          <DetailsList>
            <DetailItem label="Capacity">{venue.capacity.toLocaleString("en-GB")}</DetailItem>
            <DetailItem label="Created">
              <DateTime iso={venue.created_at} />
            </DetailItem>
          </DetailsList>
        </FormSection>
      )}
    </div>
  );
}
