import { beforeEach, describe, expect, it } from "vitest";
import { createEvent, createVenue, expectError, expectStatus, venueBody, type Api } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useTestServer } from "../support/server";

describe("/v1/venues", () => {
  useTestDatabase();
  const server = useTestServer();
  let api: Api;
  let other: Api;

  beforeEach(async () => {
    api = apiClient(server.url(), (await createTenant()).apiKey);
    other = apiClient(server.url(), (await createTenant()).apiKey);
  });

  it("creates a venue and reads it back", async () => {
    const response = await api("/v1/venues", { method: "POST", body: venueBody() });
    const venue = await expectStatus(response, 201);
    expect(response.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{24}$/);
    expect(venue).toEqual({
      id: expect.stringMatching(/^ven_[0-9a-f]{32}$/),
      name: "Konserthuset",
      address: { street: "Hötorget 8", city: "Stockholm", postal_code: "111 57", country: "SE" },
      capacity: 1800,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(await expectStatus(await api(`/v1/venues/${venue.id}`), 200)).toEqual(venue);
  });

  it("lists the organization's venues newest first, with data only", async () => {
    const first = await createVenue(api, { name: "First" });
    const second = await createVenue(api, { name: "Second" });
    await createVenue(other, { name: "Foreign" });
    const body = await expectStatus(await api("/v1/venues"), 200);
    expect(Object.keys(body)).toEqual(["data"]);
    expect((body.data as { id: string }[]).map((v) => v.id)).toEqual([second.id, first.id]);
  });

  it.each([
    ["missing name", { name: undefined }, ["name"]],
    ["blank name", { name: "   " }, ["name"]],
    ["name too long", { name: "x".repeat(201) }, ["name"]],
    ["capacity as a string", { capacity: "100" }, ["capacity"]],
    ["capacity zero", { capacity: 0 }, ["capacity"]],
    ["capacity above 1,000,000", { capacity: 1_000_001 }, ["capacity"]],
    ["fractional capacity", { capacity: 10.5 }, ["capacity"]],
    ["missing address", { address: undefined }, ["address"]],
    ["lower-case country", { address: { street: "a", city: "b", postal_code: "1", country: "se" } }, ["address.country"]],
    ["unknown country", { address: { street: "a", city: "b", postal_code: "1", country: "XX" } }, ["address.country"]],
    ["missing street", { address: { city: "b", postal_code: "1", country: "SE" } }, ["address.street"]],
    ["empty city", { address: { street: "a", city: "", postal_code: "1", country: "SE" } }, ["address.city"]],
    ["unknown field", { quantity: 3 }, ["quantity"]],
  ])("refuses a venue with %s", async (_label, overrides, paths) => {
    await expectError(await api("/v1/venues", { method: "POST", body: venueBody(overrides) }), 400, "validation_failed", paths);
  });

  it("patches any subset and merges address members", async () => {
    const venue = await createVenue(api);
    const patched = await expectStatus(
      await api(`/v1/venues/${venue.id}`, { method: "PATCH", body: { capacity: 2000, address: { city: "Göteborg" } } }),
      200,
    );
    expect(patched).toMatchObject({
      name: "Konserthuset",
      capacity: 2000,
      address: { street: "Hötorget 8", city: "Göteborg", postal_code: "111 57", country: "SE" },
    });
    expect(await expectStatus(await api(`/v1/venues/${venue.id}`), 200)).toEqual(patched);
    await expectError(
      await api(`/v1/venues/${venue.id}`, { method: "PATCH", body: { address: { country: "se" } } }),
      400,
      "validation_failed",
      ["address.country"],
    );
    await expectError(
      await api(`/v1/venues/${venue.id}`, { method: "PATCH", body: { id: "ven_x" } }),
      400,
      "validation_failed",
      ["id"],
    );
  });

  it("soft-deletes a venue: 204, then 404 everywhere", async () => {
    const venue = await createVenue(api);
    const response = await api(`/v1/venues/${venue.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    await expectError(await api(`/v1/venues/${venue.id}`), 404, "not_found");
    await expectError(await api(`/v1/venues/${venue.id}`, { method: "PATCH", body: { capacity: 5 } }), 404, "not_found");
    await expectError(await api(`/v1/venues/${venue.id}`, { method: "DELETE" }), 404, "not_found");
    expect((await expectStatus(await api("/v1/venues"), 200)).data).toEqual([]);
  });

  it("refuses to delete a venue while a not-deleted event uses it", async () => {
    const venue = await createVenue(api);
    const event = await createEvent(api, venue.id);
    await expectError(await api(`/v1/venues/${venue.id}`, { method: "DELETE" }), 409, "conflict");
    expect((await api(`/v1/events/${event.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(`/v1/venues/${venue.id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("answers 404 for unknown, malformed, wrong-kind and foreign ids", async () => {
    const foreign = await createVenue(other);
    const unknown = `ven_${"0".repeat(32)}`;
    for (const id of [unknown, "ven_nope", `evt_${foreign.id.slice(4)}`, foreign.id]) {
      await expectError(await api(`/v1/venues/${id}`), 404, "not_found");
      await expectError(await api(`/v1/venues/${id}`, { method: "PATCH", body: { capacity: 3 } }), 404, "not_found");
      await expectError(await api(`/v1/venues/${id}`, { method: "DELETE" }), 404, "not_found");
    }
    expect(await expectStatus(await other(`/v1/venues/${foreign.id}`), 200)).toMatchObject({ capacity: 1800 });
  });

  it("checks scopes and authentication", async () => {
    const reader = apiClient(server.url(), (await createTenant({ scopes: ["venues:read"] })).apiKey);
    const eventsOnly = apiClient(server.url(), (await createTenant({ scopes: ["events:read", "events:write"] })).apiKey);
    expect(await expectStatus(await reader("/v1/venues"), 200)).toEqual({ data: [] });
    const forbidden = await expectError(await reader("/v1/venues", { method: "POST", body: venueBody() }), 403, "forbidden");
    expect(forbidden.error).toBe("Insufficient permissions. Required scope: venues:write");
    await expectError(await eventsOnly("/v1/venues"), 403, "forbidden");
    await expectError(await fetch(`${server.url()}/v1/venues`), 401, "unauthorized");
  });

  it("answers 405 with Allow for unlisted methods", async () => {
    const response = await api("/v1/venues", { method: "PUT", body: venueBody() });
    expect(response.headers.get("allow")).toBe("GET, POST");
    await expectError(response, 405, "method_not_allowed");
    const venue = await createVenue(api);
    const one = await api(`/v1/venues/${venue.id}`, { method: "POST", body: {} });
    expect(one.headers.get("allow")).toBe("GET, PATCH, DELETE");
    await expectError(one, 405, "method_not_allowed");
  });

  it("answers unknown paths under every API prefix with a JSON 404", async () => {
    await expectError(await api("/analytics_search/api/orders"), 404, "not_found");
    await expectError(await api("/analytics_search"), 404, "not_found");
    await expectError(await api("/webhooks/endpoints", { method: "POST", body: {} }), 404, "not_found");
    await expectError(await api("/webhooks/deliveries/dlv_x/attempts/1"), 404, "not_found");
  });

  it("answers unknown /v1 paths with a JSON 404", async () => {
    await expectError(await api("/v1/stadiums"), 404, "not_found");
    await expectError(await api("/v1"), 404, "not_found");
    await expectError(await api("/v1/venues/a/b/c", { method: "POST", body: {} }), 404, "not_found");
    await expectError(await fetch(`${server.url()}/v1/nothing-here`, { method: "DELETE" }), 404, "not_found");
  });
});
