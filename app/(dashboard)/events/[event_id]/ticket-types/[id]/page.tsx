import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { getEvent } from "@/lib/catalog/events";
import { listTicketTypes } from "@/lib/catalog/ticket-types";
import { formatDateTime, formatMoney } from "@/lib/dashboard/format";
import { requireSession } from "@/lib/dashboard/session";
import { orNotFound } from "@/lib/dashboard/not-found";
import { getOrganization } from "@/lib/organizations/organizations";
import { TicketTypeForm } from "../../ticket-type-form";
import { DetailHeader } from "../../../../_components/detail-header";
import { DetailItem, DetailsList } from "../../../../_components/details-list";
import { FormSection } from "../../../../_components/sections";

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
      {can(session.role, "catalog") ? (
        <FormSection id="edit-heading" title="Edit ticket type">
          {ticketType.status === "cancelled" ? (
            <p className="text-sm text-slate-600">
              This ticket type is cancelled{event.status === "cancelled" ? " with its event" : ""}, so it cannot be changed.
            </p>
          ) : (
            <TicketTypeForm eventId={event.id} currency={currency} ticketType={ticketType} />
          )}
        </FormSection>
      ) : (
        <FormSection id="details-heading" title="Details">
          <DetailsList>
            <DetailItem label="Category">{ticketType.category}</DetailItem>
            <DetailItem label="VAT">{ticketType.vat}%</DetailItem>
            <DetailItem label="On sale">
              {formatDateTime(ticketType.sale_starts_at)} – {formatDateTime(ticketType.sale_ends_at)}
            </DetailItem>
          </DetailsList>
        </FormSection>
      )}
    </div>
  );
}
