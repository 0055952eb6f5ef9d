import type { Metadata } from "next";
import { listVenues } from "@/lib/catalog/venues";
import { requireSession } from "@/lib/dashboard/session";
import { VenueForm } from "./venue-form";
import { VenuesTable } from "./venues-table";

export const metadata: Metadata = { title: "Venues · Ticketing analytics" };

export default async function VenuesPage() {
  const session = await requireSession();
  const { data: venues } = await listVenues(session.organizationId);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Venues</h1>
        <p className="text-sm text-slate-600">Where your events take place.</p>
      </div>
      <section aria-labelledby="venues-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="venues-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Venues
        </h2>
        <VenuesTable venues={venues} />
      </section>
      <section aria-labelledby="create-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          Create a venue
        </h2>
        <VenueForm />
      </section>
    </div>
  );
}
