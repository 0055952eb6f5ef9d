import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "@/db/client";
import { orderItems, orders, ticketTypes } from "@/db/schema";
import { ticketTypeColumns } from "@/lib/catalog/ticket-types";
import { fromPublicId } from "@/lib/ids";
import { sellTickets } from "./order-fixtures";
import { apiClient } from "./fixtures";

export type Api = ReturnType<typeof apiClient>;

const HOUR = 3_600_000;
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

/** Reads a JSON response after checking its status; the message shows the body when the status differs. */
export async function expectStatus<T = Record<string, unknown>>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, `${response.url} → ${text}`).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An error body with the given status and code; with `paths`, details name exactly those fields. */
export async function expectError(response: Response, status: number, code: string, paths?: string[]) {
  const body = await expectStatus<{ error: string; code: string; trace_id: string; details?: { path: string }[] }>(
    response,
    status,
  );
  expect(body).toMatchObject({ code, error: expect.any(String), trace_id: response.headers.get("x-trace-id") });
  if (paths) expect(body.details?.map((d) => d.path).sort()).toEqual([...paths].sort());
  return body;
}

export const venueBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Konserthuset",
  address: { street: "Hötorget 8", city: "Stockholm", postal_code: "111 57", country: "SE" },
  capacity: 1800,
  ...overrides,
});

export async function createVenue(api: Api, overrides: Record<string, unknown> = {}) {
  return expectStatus<{ id: string; name: string }>(
    await api("/v1/venues", { method: "POST", body: venueBody(overrides) }),
    201,
  );
}

export const eventBody = (venueId: string, overrides: Record<string, unknown> = {}) => ({
  name: "Spring concert",
  starts_at: hoursFromNow(24 * 30),
  ends_at: hoursFromNow(24 * 30 + 3),
  venue_id: venueId,
  ...overrides,
});

export async function createEvent(api: Api, venueId: string, overrides: Record<string, unknown> = {}) {
  return expectStatus<{ id: string; status: string }>(
    await api("/v1/events", { method: "POST", body: eventBody(venueId, overrides) }),
    201,
  );
}

export const ticketBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Standing",
  price: 45000,
  currency: "SEK",
  quantity_total: 100,
  sale_starts_at: hoursFromNow(-1),
  sale_ends_at: hoursFromNow(24 * 29),
  ...overrides,
});

export async function createTicket(api: Api, eventId: string, overrides: Record<string, unknown> = {}) {
  return expectStatus<{ id: string; status: string; quantity_sold: number }>(
    await api(`/v1/events/${eventId}/tickets`, { method: "POST", body: ticketBody(overrides) }),
    201,
  );
}

let orderNumber = 0;

/**
 * Writes an order of one ticket type straight into the database, as the order path would leave it,
 * so catalog tests do not depend on the order endpoints.
 */
export async function insertOrder(input: {
  organizationId: string;
  eventId: string;
  ticketTypeId: string;
  quantity: number;
  status?: "completed" | "refunded" | "cancelled";
}) {
  const eventId = fromPublicId("event", input.eventId)!;
  const ticketTypeId = fromPublicId("ticketType", input.ticketTypeId)!;
  const [ticket] = await db.select().from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  const total = ticket!.price * input.quantity;
  const [order] = await db
    .insert(orders)
    .values({
      organizationId: input.organizationId,
      eventId,
      orderNumber: ++orderNumber,
      status: input.status ?? "completed",
      customerEmail: "ada@example.test",
      customerName: "Ada Lovelace",
      paymentMethod: "card",
      paymentMethodBrand: "visa",
      orderSource: "web",
      currency: ticket!.currency,
      totalPrice: total,
      originalPrice: total,
    })
    .returning();
  await db.insert(orderItems).values({
    orderId: order!.id,
    ticketTypeId,
    name: ticket!.name,
    category: ticket!.category,
    quantity: input.quantity,
    unitPrice: ticket!.price,
    vatPercent: ticket!.vatPercent,
    eventId,
    eventName: "Spring concert",
  });
  if ((input.status ?? "completed") === "completed") {
    await sellTickets(ticketTypeId, input.quantity);
  }
  return order!;
}

export async function orderRow(id: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

export async function ticketRow(publicId: string) {
  const [row] = await db.select(ticketTypeColumns).from(ticketTypes).where(eq(ticketTypes.id, fromPublicId("ticketType", publicId)!));
  return row;
}
