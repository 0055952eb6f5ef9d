import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getVenue } from "@/lib/catalog/venues";
import { requireSession } from "@/lib/dashboard/session";
import { ApiError } from "@/lib/http/errors";
import { VenueForm } from "../venue-form";
import { Card } from "../../_components/card";

export const metadata: Metadata = { title: "Edit venue · Ticketing analytics" };

export default async function VenuePage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession();
  const { id } = await params;
  const venue = await getVenue(session.organizationId, id).catch((error: unknown) => {
    // Unknown, deleted and foreign venues are all "not found".
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  });
  if (!venue) notFound();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <Link href="/venues" className="text-sm text-blue-800 underline-offset-2 hover:underline">
          ← Venues
        </Link>
        <h1 className="mt-1 text-2xl font-semibold break-words">{venue.name}</h1>
        <p className="text-sm text-slate-600">
          {venue.address.street}, {venue.address.postal_code} {venue.address.city}, {venue.address.country}
        </p>
      </div>
      <Card labelledBy="edit-heading" padded>
        <h2 id="edit-heading" className="mb-4 text-base font-semibold">
          Edit venue
        </h2>
        <VenueForm venue={venue} />
      </Card>
    </div>
  );
}
