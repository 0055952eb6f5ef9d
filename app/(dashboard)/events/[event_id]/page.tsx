import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { getEvent } from "@/lib/catalog/events";
import { listTicketTypes } from "@/lib/catalog/ticket-types";
import { listVenues } from "@/lib/catalog/venues";
import { eventSales } from "@/lib/dashboard/event-sales";
import { requireSession } from "@/lib/dashboard/session";
import { orNotFound } from "@/lib/dashboard/not-found";
import { getOrganization } from "@/lib/organizations/organizations";
import { EventActions } from "../event-actions";
import { EventForm } from "../event-form";
import { StatusBadge } from "../events-table";
import { EventSalesSection } from "./event-sales-section";
import { TicketTypeForm } from "./ticket-type-form";
import { TicketTypesTable } from "./ticket-types-table";
import { Card } from "../../_components/card";
import { DateTime } from "../../_components/date-time";
import { DetailItem, DetailsList } from "../../_components/details-list";
import { FormSection } from "../../_components/sections";

export const metadata: Metadata = { title: "Event · Ticketing analytics" };

export default async function EventPage({ params }: { params: Promise<{ event_id: string }> }) {
  const session = await requireSession("read");
  const { event_id: id } = await params;
  // Unknown, deleted and foreign events are all "not found".
  const loaded = await orNotFound(
    Promise.all([
      getEvent(session.organizationId, id),
      listTicketTypes(session.organizationId, id),
      listVenues(session.organizationId),
      getOrganization(session.organizationId),
    ]),
  );
  const [event, { data: ticketTypes }, { data: venues }, organization] = loaded;
  const currency = organization!.currency;
  const saleOpened = ticketTypes.map((ticket) => ticket.sale_starts_at).sort()[0] ?? null;
  const sales = await eventSales(session.organizationId, event.id, saleOpened);
  const editable = can(session.role, "catalog");
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <Link href="/events" className="text-sm text-blue-800 underline-offset-2 hover:underline">
          ← Events
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold break-words">{event.name}</h1>
          <StatusBadge status={event.status} ended={event.has_ended} />
        </div>
        <p className="text-sm text-slate-600">{event.venue.name}</p>
        {editable && (
          <div className="mt-3">
            <EventActions event={{ id: event.id, name: event.name, status: event.status, ended: event.has_ended }} />
          </div>
        )}
      </div>

      <EventSalesSection sales={sales} ticketTypes={ticketTypes} currency={currency} />

      <Card labelledBy="tickets-heading">
        <h2 id="tickets-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Ticket types
        </h2>
        <TicketTypesTable ticketTypes={ticketTypes} readOnly={!editable} />
      </Card>

      {editable && event.status !== "cancelled" && (
        <FormSection id="create-ticket-heading" title="Add a ticket type">
          <TicketTypeForm eventId={event.id} currency={currency} />
        </FormSection>
      )}

      {editable ? (
        <FormSection id="edit-heading" title="Edit event">
          <EventForm
            venues={venues.map((venue) => ({ id: venue.id, name: venue.name }))}
            event={{
              id: event.id,
              name: event.name,
              description: event.description,
              venueId: event.venue.id,
              startsAt: event.starts_at,
              endsAt: event.ends_at,
            }}
          />
        </FormSection>
      ) : (
        <FormSection id="details-heading" title="Details">
          <DetailsList>
            <DetailItem label="Starts">
              <DateTime iso={event.starts_at} />
            </DetailItem>
            <DetailItem label="Ends">
              <DateTime iso={event.ends_at} />
            </DetailItem>
            <DetailItem label="Venue">{event.venue.name}</DetailItem>
            <DetailItem label="Description">{event.description || "None"}</DetailItem>
          </DetailsList>
        </FormSection>
      )}
    </div>
  );
}
