import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getEvent } from "@/lib/catalog/events";
import { listTicketTypes } from "@/lib/catalog/ticket-types";
import { formatMoney } from "@/lib/dashboard/format";
import { requireSession } from "@/lib/dashboard/session";
import { orNotFound } from "@/lib/dashboard/not-found";
import { getOrganization } from "@/lib/organizations/organizations";
import { TicketTypeForm } from "../../ticket-type-form";
import { Card } from "../../../../_components/card";
import { DetailHeader } from "../../../../_components/detail-header";

export const metadata: Metadata = { title: "Edit ticket type · Ticketing analytics" };

export default async function TicketTypePage({ params }: { params: Promise<{ event_id: string; id: string }> }) {
  const session = await requireSession("read");
  const { event_id: eventId, id } = await params;
  // Unknown, deleted and foreign events are all "not found".
  const loaded = await orNotFound(
    Promise.all([
      getEvent(session.organizationId, eventId),
      listTicketTypes(session.organizationId, eventId),
      getOrganization(session.organizationId),
    ]),
  );
  const ticketType = loaded[1].data.find((candidate) => candidate.id === id);
  if (!ticketType) notFound();
  const [event, , organization] = loaded;
  const currency = organization!.currency;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <DetailHeader
        back={{ href: `/events/${event.id}`, label: event.name }}
        title={ticketType.name}
        subtitle={`${formatMoney(ticketType.price, ticketType.currency)} · ${ticketType.quantity_sold.toLocaleString("en-GB")} of ${ticketType.quantity_total.toLocaleString("en-GB")} sold · ${ticketType.status.replace("_", " ")}`}
      />
      <Card labelledBy="edit-heading" padded>
        <h2 id="edit-heading" className="mb-4 text-base font-semibold">
          Edit ticket type
        </h2>
        {ticketType.status === "cancelled" ? (
          <p className="text-sm text-slate-600">
            This ticket type is cancelled{event.status === "cancelled" ? " with its event" : ""}, so it cannot be changed.
          </p>
        ) : (
          <TicketTypeForm eventId={event.id} currency={currency} ticketType={ticketType} />
        )}
      </Card>
    </div>
  );
}
