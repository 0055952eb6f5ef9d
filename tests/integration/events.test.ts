import { beforeEach, describe, expect, it } from "vitest";
import {
  createEvent,
  createTicket,
  createVenue,
  eventBody,
  expectError,
  expectStatus,
  hoursFromNow,
  insertOrder,
  orderRow,
  ticketRow,
  type Api,
} from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useTestServer } from "../support/server";

type Event = { id: string; status: string; description?: string; venue: { id: string; name: string } };

describe("/v1/events", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: Api;
  let other: Api;
  let venue: { id: string; name: string };

  beforeEach(async () => {
    tenant = await createTenant();
    api = apiClient(server.url(), tenant.apiKey);
    other = apiClient(server.url(), (await createTenant()).apiKey);
    venue = await createVenue(api);
  });

  const patch = (id: string, body: unknown) => api(`/v1/events/${id}`, { method: "PATCH", body });

  it("creates a draft event and reads it back", async () => {
    const body = eventBody(venue.id, { starts_at: "2027-05-01T18:00:00+02:00", ends_at: "2027-05-01T21:00:00Z" });
    const event = await expectStatus<Event>(await api("/v1/events", { method: "POST", body }), 201);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      name: "Spring concert",
      status: "draft",
      starts_at: "2027-05-01T16:00:00.000Z",
      ends_at: "2027-05-01T21:00:00.000Z",
      has_ended: false,
      venue: { id: venue.id, name: "Konserthuset" },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect("description" in event).toBe(false);
    expect(await expectStatus(await api(`/v1/events/${event.id}`), 200)).toEqual(event);
  });

  it("derives has_ended from ends_at at read time, leaving the status as set", async () => {
    const body = eventBody(venue.id, { starts_at: "2020-05-01T18:00:00Z", ends_at: "2020-05-01T21:00:00Z", status: "published" });
    const event = await expectStatus<Event>(await api("/v1/events", { method: "POST", body }), 201);
    expect(event).toMatchObject({ status: "published", has_ended: true });
    expect(await expectStatus(await api(`/v1/events/${event.id}`), 200)).toMatchObject({ status: "published", has_ended: true });
  });

  it("accepts a description and an initial published status", async () => {
    const event = await createEvent(api, venue.id, { description: "With strings", status: "published" });
    expect(event).toMatchObject({ status: "published", description: "With strings" });
  });

  it.each([
    ["missing name", { name: undefined }, ["name"]],
    ["name of the wrong type", { name: 42 }, ["name"]],
    ["description over 5000 characters", { description: "x".repeat(5001) }, ["description"]],
    ["missing starts_at", { starts_at: undefined }, ["starts_at"]],
    ["a timestamp without time zone", { starts_at: "2027-05-01T18:00:00" }, ["starts_at"]],
    ["starts_at equal to ends_at", { starts_at: "2027-05-01T18:00:00Z", ends_at: "2027-05-01T18:00:00Z" }, ["ends_at"]],
    ["starts_at after ends_at", { starts_at: "2027-05-02T18:00:00Z", ends_at: "2027-05-01T18:00:00Z" }, ["ends_at"]],
    ["initial status cancelled", { status: "cancelled" }, ["status"]],
    ["unknown field", { capacity: 5 }, ["capacity"]],
  ])("refuses an event with %s", async (_label, overrides, paths) => {
    await expectError(
      await api("/v1/events", { method: "POST", body: eventBody(venue.id, overrides) }),
      400,
      "validation_failed",
      paths,
    );
  });

  it("refuses a venue_id that is not a live venue of the organization", async () => {
    const foreign = await createVenue(other);
    const deleted = await createVenue(api, { name: "Gone" });
    expect((await api(`/v1/venues/${deleted.id}`, { method: "DELETE" })).status).toBe(204);
    for (const venueId of [foreign.id, deleted.id, "ven_bad", `ven_${"1".repeat(32)}`]) {
      await expectError(
        await api("/v1/events", { method: "POST", body: eventBody(venueId) }),
        400,
        "validation_failed",
        ["venue_id"],
      );
    }
  });

  it("lists with pagination meta, filters and organization isolation", async () => {
    const otherVenue = await createVenue(api, { name: "Other hall" });
    const a = await createEvent(api, venue.id, { name: "A" });
    const b = await createEvent(api, venue.id, { name: "B", status: "published" });
    const c = await createEvent(api, otherVenue.id, { name: "C" });
    await createEvent(other, (await createVenue(other)).id);

    const all = await expectStatus<{ data: Event[]; meta: unknown }>(await api("/v1/events"), 200);
    expect(all.data.map((e) => e.id)).toEqual([c.id, b.id, a.id]);
    expect(all.meta).toEqual({ page: 1, per_page: 25, total: 3 });

    const page2 = await expectStatus<{ data: Event[]; meta: unknown }>(await api("/v1/events?page=2&per_page=2"), 200);
    expect(page2.data.map((e) => e.id)).toEqual([a.id]);
    expect(page2.meta).toEqual({ page: 2, per_page: 2, total: 3 });

    const published = await expectStatus<{ data: Event[]; meta: { total: number } }>(
      await api("/v1/events?status=published"),
      200,
    );
    expect(published.data.map((e) => e.id)).toEqual([b.id]);
    const atOther = await expectStatus<{ data: Event[] }>(await api(`/v1/events?venue_id=${otherVenue.id}&unknown=1`), 200);
    expect(atOther.data.map((e) => e.id)).toEqual([c.id]);
    expect((await expectStatus<{ data: Event[] }>(await other(`/v1/events?venue_id=${venue.id}`), 200)).data).toEqual([]);
  });

  it.each([
    ["page=0", ["page"]],
    ["page=abc", ["page"]],
    ["per_page=0", ["per_page"]],
    ["per_page=101", ["per_page"]],
    ["per_page=2.5", ["per_page"]],
    ["status=live", ["status"]],
    ["venue_id=nope", ["venue_id"]],
  ])("refuses the list query %s", async (query, paths) => {
    await expectError(await api(`/v1/events?${query}`), 400, "validation_failed", paths);
  });

  it("patches any subset and re-checks the merged time window", async () => {
    const event = await createEvent(api, venue.id, { description: "old", starts_at: "2027-05-01T18:00:00Z", ends_at: "2027-05-01T21:00:00Z" });
    const moved = await createVenue(api, { name: "New hall" });
    const patched = await expectStatus<Event>(
      await patch(event.id, { name: "Renamed", description: null, venue_id: moved.id, ends_at: "2027-05-01T22:00:00Z" }),
      200,
    );
    expect(patched).toMatchObject({ name: "Renamed", venue: { id: moved.id, name: "New hall" }, ends_at: "2027-05-01T22:00:00.000Z" });
    expect("description" in patched).toBe(false);
    await expectError(await patch(event.id, { starts_at: "2027-05-01T23:00:00Z" }), 400, "validation_failed", ["starts_at"]);
    await expectError(await patch(event.id, { ends_at: "2027-05-01T17:00:00Z" }), 400, "validation_failed", ["ends_at"]);
    await expectError(await patch(event.id, { venue_id: `ven_${"2".repeat(32)}` }), 400, "validation_failed", ["venue_id"]);
    await expectError(await patch(event.id, { status: "archived" }), 400, "validation_failed", ["status"]);
    await expectError(await patch(event.id, { created_at: hoursFromNow(0) }), 400, "validation_failed", ["created_at"]);
  });

  it("follows the status transitions and refuses the others with 409", async () => {
    const event = await createEvent(api, venue.id);
    await expectStatus(await patch(event.id, { status: "draft" }), 200);
    expect(await expectStatus(await patch(event.id, { status: "published" }), 200)).toMatchObject({ status: "published" });
    await expectStatus(await patch(event.id, { status: "published" }), 200);
    await expectError(await patch(event.id, { status: "draft" }), 409, "conflict");
    expect(await expectStatus(await patch(event.id, { status: "cancelled" }), 200)).toMatchObject({ status: "cancelled" });
    await expectError(await patch(event.id, { status: "published" }), 409, "conflict");
    await expectError(await patch(event.id, { status: "draft" }), 409, "conflict");

    const draft = await createEvent(api, venue.id);
    expect(await expectStatus(await patch(draft.id, { status: "cancelled" }), 200)).toMatchObject({ status: "cancelled" });
  });

  it("cancelling cancels the tickets and refunds completed orders, keeping the event readable", async () => {
    const event = await createEvent(api, venue.id, { status: "published" });
    const ticket = await createTicket(api, event.id);
    const completed = await insertOrder({ organizationId: tenant.organization.id, eventId: event.id, ticketTypeId: ticket.id, quantity: 3 });
    expect((await ticketRow(ticket.id))!.quantitySold).toBe(3);

    await expectStatus(await patch(event.id, { status: "cancelled" }), 200);
    expect(await expectStatus(await api(`/v1/events/${event.id}`), 200)).toMatchObject({ status: "cancelled" });
    const tickets = await expectStatus<{ data: { status: string; quantity_sold: number }[] }>(
      await api(`/v1/events/${event.id}/tickets`),
      200,
    );
    expect(tickets.data).toEqual([expect.objectContaining({ status: "cancelled", quantity_sold: 0 })]);
    expect((await ticketRow(ticket.id))!.cancelledAt).toBeInstanceOf(Date);
    expect(await orderRow(completed.id)).toMatchObject({ status: "refunded", refundReason: "event_cancelled", isRefunded: true });
  });

  it("deleting hides the event, cancels its tickets and refunds its completed orders in one go", async () => {
    const event = await createEvent(api, venue.id, { status: "published" });
    const bystander = await createEvent(api, venue.id, { status: "published" });
    const ticket = await createTicket(api, event.id);
    const second = await createTicket(api, event.id, { name: "Seated" });
    const bystanderTicket = await createTicket(api, bystander.id);
    const org = tenant.organization.id;
    const completed = await insertOrder({ organizationId: org, eventId: event.id, ticketTypeId: ticket.id, quantity: 2 });
    const completed2 = await insertOrder({ organizationId: org, eventId: event.id, ticketTypeId: second.id, quantity: 1 });
    const cancelled = await insertOrder({ organizationId: org, eventId: event.id, ticketTypeId: ticket.id, quantity: 1, status: "cancelled" });
    const untouched = await insertOrder({ organizationId: org, eventId: bystander.id, ticketTypeId: bystanderTicket.id, quantity: 4 });

    const response = await api(`/v1/events/${event.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);

    await expectError(await api(`/v1/events/${event.id}`), 404, "not_found");
    await expectError(await patch(event.id, { name: "x" }), 404, "not_found");
    await expectError(await api(`/v1/events/${event.id}`, { method: "DELETE" }), 404, "not_found");
    await expectError(await api(`/v1/events/${event.id}/tickets`), 404, "not_found");
    const list = await expectStatus<{ data: Event[]; meta: { total: number } }>(await api("/v1/events"), 200);
    expect(list.data.map((e) => e.id)).toEqual([bystander.id]);
    expect(list.meta.total).toBe(1);

    for (const id of [ticket.id, second.id]) {
      expect(await ticketRow(id)).toMatchObject({ cancelledAt: expect.any(Date), quantitySold: 0 });
    }
    expect(await orderRow(completed.id)).toMatchObject({ status: "refunded", refundReason: "event_deleted" });
    expect(await orderRow(completed2.id)).toMatchObject({ status: "refunded", refundReason: "event_deleted" });
    expect(await orderRow(cancelled.id)).toMatchObject({ status: "cancelled", refundReason: null });
    expect(await orderRow(untouched.id)).toMatchObject({ status: "completed" });
    expect(await ticketRow(bystanderTicket.id)).toMatchObject({ cancelledAt: null, quantitySold: 4 });
  });

  it("answers 404 for unknown, malformed and foreign ids", async () => {
    const foreign = await createEvent(other, (await createVenue(other)).id);
    for (const id of [foreign.id, "evt_123", `evt_${"3".repeat(32)}`, venue.id]) {
      await expectError(await api(`/v1/events/${id}`), 404, "not_found");
      await expectError(await patch(id, { name: "x" }), 404, "not_found");
      await expectError(await api(`/v1/events/${id}`, { method: "DELETE" }), 404, "not_found");
    }
    expect((await expectStatus<{ data: Event[] }>(await api("/v1/events"), 200)).data).toEqual([]);
  });

  it("checks scopes and answers 405 for unlisted methods", async () => {
    const reader = apiClient(server.url(), (await createTenant({ scopes: ["events:read"] })).apiKey);
    await expectStatus(await reader("/v1/events"), 200);
    const forbidden = await expectError(
      await reader("/v1/events", { method: "POST", body: eventBody(venue.id) }),
      403,
      "forbidden",
    );
    expect(forbidden.error).toContain("events:write");
    const venuesOnly = apiClient(server.url(), (await createTenant({ scopes: ["venues:read"] })).apiKey);
    await expectError(await venuesOnly("/v1/events"), 403, "forbidden");

    const event = await createEvent(api, venue.id);
    const put = await api(`/v1/events/${event.id}`, { method: "PUT", body: eventBody(venue.id) });
    expect(put.headers.get("allow")).toBe("GET, PATCH, DELETE");
    await expectError(put, 405, "method_not_allowed");
    await expectError(await api("/v1/events", { method: "DELETE" }), 405, "method_not_allowed");
  });
});
