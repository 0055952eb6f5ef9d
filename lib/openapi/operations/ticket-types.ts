import {
  createTicketTypeSchema,
  ticketTypeListSchema,
  ticketTypeSchema,
  updateTicketTypeSchema,
} from "@/lib/catalog/ticket-type-schemas";
import { defineResource } from "@/lib/http/operation";
import { TICKET_TYPE_EXAMPLE } from "./examples";

const EVENT_ID = { event_id: "Event id (evt_…)" };
const TICKET_TYPE_ID = { ...EVENT_ID, id: "Ticket type id (tkt_…)" };

export const TICKET_TYPES = defineResource(
  { name: "Ticket types", description: "What an event sells; status is derived from the sale window and stock." },
  {
    listTicketTypes: {
      method: "get",
      path: "/v1/events/{event_id}/tickets",
      summary: "List the ticket types of an event",
      description: "Every ticket type of the event, oldest first, with its derived status and quantity sold.",
      access: { scope: "events:read" },
      params: EVENT_ID,
      response: { status: 200, description: "Every ticket type of the event", schema: ticketTypeListSchema, name: "TicketTypeList", example: { data: [TICKET_TYPE_EXAMPLE] } },
    },
    createTicketType: {
      method: "post",
      path: "/v1/events/{event_id}/tickets",
      summary: "Create a ticket type",
      description: "A price in minor units, a quantity and a sale window; sale_starts_at must be before sale_ends_at.",
      access: { scope: "events:write" },
      params: EVENT_ID,
      body: createTicketTypeSchema,
      bodyExample: {
        name: "General admission",
        price: 49_500,
        currency: "SEK",
        quantity_total: 1_000,
        sale_starts_at: "2026-03-01T09:00:00Z",
        sale_ends_at: "2026-07-01T18:00:00Z",
        category: "Admission",
        vat: 6,
      },
      response: { status: 201, description: "The created ticket type", schema: ticketTypeSchema, name: "TicketType", example: { ...TICKET_TYPE_EXAMPLE, quantity_sold: 0 } },
      location: "/v1/events/{event_id}/tickets/{id}",
    },
    updateTicketType: {
      method: "patch",
      path: "/v1/events/{event_id}/tickets/{id}",
      summary: "Update a ticket type",
      description: "Any subset of the fields; quantity_sold is read-only.",
      access: { scope: "events:write" },
      params: TICKET_TYPE_ID,
      body: updateTicketTypeSchema,
      bodyExample: { price: 54_500, quantity_total: 1_200 },
      response: { status: 200, description: "The updated ticket type", schema: ticketTypeSchema, name: "TicketType", example: { ...TICKET_TYPE_EXAMPLE, price: 54_500, quantity_total: 1_200 } },
      conflict: "quantity_total would go below quantity_sold.",
    },
    deleteTicketType: {
      method: "delete",
      path: "/v1/events/{event_id}/tickets/{id}",
      summary: "Delete a ticket type",
      description: "Removes a ticket type of which nothing has been sold.",
      access: { scope: "events:write" },
      params: TICKET_TYPE_ID,
      response: { status: 204, description: "Deleted" },
      conflict: "Tickets of this type have been sold.",
    },
  },
);
