import { beforeEach, describe, expect, it } from "vitest";
import {
  createEvent,
  createTicket,
  createVenue,
  expectError,
  expectStatus,
  hoursFromNow,
  insertOrder,
  ticketBody,
  ticketRow,
  type Api,
} from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useTestServer } from "../support/server";

type Ticket = { id: string; status: string; quantity_sold: number; quantity_total: number };

describe("/v1/events/:event_id/tickets", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: Api;
  let other: Api;
  let event: { id: string };

  beforeEach(async () => {
    tenant = await createTenant({ currency: "SEK" });
    api = apiClient(server.url(), tenant.apiKey);
    other = apiClient(server.url(), (await createTenant({ currency: "EUR" })).apiKey);
    event = await createEvent(api, (await createVenue(api)).id, { status: "published" });
  });

  const tickets = () => `/v1/events/${event.id}/tickets`;
  const patch = (id: string, body: unknown) => api(`${tickets()}/${id}`, { method: "PATCH", body });
  const sell = (ticketId: string, quantity: number) =>
    insertOrder({ organizationId: tenant.organization.id, eventId: event.id, ticketTypeId: ticketId, quantity });

  it("creates a ticket type and lists the event's types with data only", async () => {
    const body = ticketBody({ sale_starts_at: "2026-01-01T00:00:00Z", sale_ends_at: "2099-01-01T00:00:00+01:00" });
    const ticket = await expectStatus(await api(tickets(), { method: "POST", body }), 201);
    expect(ticket).toEqual({
      id: expect.stringMatching(/^tkt_[0-9a-f]{32}$/),
      event_id: event.id,
      name: "Standing",
      category: "Admission",
      price: 45000,
      currency: "SEK",
      vat: 6,
      quantity_total: 100,
      quantity_sold: 0,
      status: "on_sale",
      sale_starts_at: "2026-01-01T00:00:00.000Z",
      sale_ends_at: "2098-12-31T23:00:00.000Z",
      created_at: expect.any(String),
    });
    const second = await createTicket(api, event.id, { name: "VIP", category: "Seated", vat: 12.5, currency: undefined });
    expect(second).toMatchObject({ currency: "SEK", category: "Seated", vat: 12.5 });
    const list = await expectStatus(await api(tickets()), 200);
    expect(Object.keys(list)).toEqual(["data"]);
    expect(list.data).toEqual([ticket, second]);
  });

  it("derives the status from the sale window, the quantities and cancellation", async () => {
    const scheduled = await createTicket(api, event.id, { sale_starts_at: hoursFromNow(1), sale_ends_at: hoursFromNow(2) });
    const ended = await createTicket(api, event.id, { sale_starts_at: hoursFromNow(-2), sale_ends_at: hoursFromNow(-1) });
    const empty = await createTicket(api, event.id, { quantity_total: 0 });
    const selling = await createTicket(api, event.id, { quantity_total: 2 });
    expect([scheduled.status, ended.status, empty.status, selling.status]).toEqual([
      "scheduled",
      "sale_ended",
      "sold_out",
      "on_sale",
    ]);
    await sell(selling.id, 2);
    const list = await expectStatus<{ data: Ticket[] }>(await api(tickets()), 200);
    expect(list.data.find((t) => t.id === selling.id)).toMatchObject({ status: "sold_out", quantity_sold: 2 });
  });

  it.each([
    ["missing name", { name: undefined }, ["name"]],
    ["negative price", { price: -1 }, ["price"]],
    ["fractional price", { price: 1.5 }, ["price"]],
    ["price as a string", { price: "100" }, ["price"]],
    ["price above the maximum", { price: 100_000_001 }, ["price"]],
    ["negative quantity_total", { quantity_total: -1 }, ["quantity_total"]],
    ["quantity_total above 1,000,000", { quantity_total: 1_000_001 }, ["quantity_total"]],
    ["missing sale_starts_at", { sale_starts_at: undefined }, ["sale_starts_at"]],
    ["sale window reversed", { sale_starts_at: hoursFromNow(2), sale_ends_at: hoursFromNow(1) }, ["sale_ends_at"]],
    ["vat above 100", { vat: 101 }, ["vat"]],
    ["quantity_sold", { quantity_sold: 5 }, ["quantity_sold"]],
    ["a foreign currency", { currency: "EUR" }, ["currency"]],
  ])("refuses a ticket type with %s", async (_label, overrides, paths) => {
    await expectError(await api(tickets(), { method: "POST", body: ticketBody(overrides) }), 400, "validation_failed", paths);
  });

  it("patches any subset; quantity_sold stays read-only and the sale window is re-checked", async () => {
    const ticket = await createTicket(api, event.id);
    const patched = await expectStatus(await patch(ticket.id, { name: "Early bird", price: 30000, currency: "SEK" }), 200);
    expect(patched).toMatchObject({ id: ticket.id, name: "Early bird", price: 30000, quantity_total: 100 });
    await expectError(await patch(ticket.id, { quantity_sold: 0 }), 400, "validation_failed", ["quantity_sold"]);
    await expectError(await patch(ticket.id, { currency: "NOK" }), 400, "validation_failed", ["currency"]);
    await expectError(await patch(ticket.id, { sale_ends_at: hoursFromNow(-5) }), 400, "validation_failed", ["sale_ends_at"]);
    await expectError(await patch(ticket.id, { price: -5 }), 400, "validation_failed", ["price"]);
  });

  it("refuses to lower quantity_total below the tickets sold", async () => {
    const ticket = await createTicket(api, event.id, { quantity_total: 10 });
    await sell(ticket.id, 4);
    await expectError(await patch(ticket.id, { quantity_total: 3 }), 409, "conflict");
    expect(await expectStatus(await patch(ticket.id, { quantity_total: 4 }), 200)).toMatchObject({
      quantity_total: 4,
      quantity_sold: 4,
      status: "sold_out",
    });
  });

  it("hard-deletes an unsold ticket type and refuses once any are sold", async () => {
    const unsold = await createTicket(api, event.id);
    const response = await api(`${tickets()}/${unsold.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await ticketRow(unsold.id)).toBeUndefined();
    await expectError(await patch(unsold.id, { name: "x" }), 404, "not_found");

    const sold = await createTicket(api, event.id);
    await sell(sold.id, 1);
    await expectError(await api(`${tickets()}/${sold.id}`, { method: "DELETE" }), 409, "conflict");

    // A refunded sale gave its quantity back, yet its order items still point at the type.
    const refunded = await createTicket(api, event.id);
    await insertOrder({ organizationId: tenant.organization.id, eventId: event.id, ticketTypeId: refunded.id, quantity: 1, status: "refunded" });
    await expectError(await api(`${tickets()}/${refunded.id}`, { method: "DELETE" }), 409, "conflict");
  });

  it("refuses to create or change ticket types of a cancelled event", async () => {
    const ticket = await createTicket(api, event.id);
    await expectStatus(await api(`/v1/events/${event.id}`, { method: "PATCH", body: { status: "cancelled" } }), 200);
    await expectError(await api(tickets(), { method: "POST", body: ticketBody() }), 409, "conflict");
    await expectError(await patch(ticket.id, { name: "x" }), 409, "conflict");
  });

  it("answers 404 for unknown, malformed, foreign and mismatched ids", async () => {
    const ticket = await createTicket(api, event.id);
    const sibling = await createEvent(api, (await createVenue(api)).id);
    const foreignEvent = await createEvent(other, (await createVenue(other)).id);
    for (const eventId of [foreignEvent.id, "evt_x", `evt_${"4".repeat(32)}`]) {
      await expectError(await api(`/v1/events/${eventId}/tickets`), 404, "not_found");
      await expectError(await api(`/v1/events/${eventId}/tickets`, { method: "POST", body: ticketBody() }), 404, "not_found");
      await expectError(await api(`/v1/events/${eventId}/tickets/${ticket.id}`, { method: "DELETE" }), 404, "not_found");
    }
    for (const id of ["tkt_x", `tkt_${"5".repeat(32)}`, event.id]) {
      await expectError(await patch(id, { name: "x" }), 404, "not_found");
    }
    await expectError(
      await api(`/v1/events/${sibling.id}/tickets/${ticket.id}`, { method: "PATCH", body: { name: "x" } }),
      404,
      "not_found",
    );
    await expectError(await other(tickets()), 404, "not_found");
  });

  it("checks scopes and answers 405 for unlisted methods", async () => {
    const reader = apiClient(server.url(), (await createTenant({ scopes: ["events:read"] })).apiKey);
    await expectError(await reader(tickets()), 404, "not_found");
    await expectError(await reader(tickets(), { method: "POST", body: ticketBody() }), 403, "forbidden");
    const ticket = await createTicket(api, event.id);
    const get = await api(`${tickets()}/${ticket.id}`);
    expect(get.headers.get("allow")).toBe("PATCH, DELETE");
    await expectError(get, 405, "method_not_allowed");
    await expectError(await api(tickets(), { method: "PUT", body: {} }), 405, "method_not_allowed");
  });
});
