import { describe, expect, it } from "vitest";
import { USER_ROLES } from "@/db/schema";
import { can, type Permission } from "@/lib/auth/permissions";
import { createUser } from "@/lib/auth/users";
import { createEvent, createTicket, createVenue, insertOrder } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { readResult, sessionCookie } from "../support/http";
import { useTestServer } from "../support/server";

/**
 * Every role reads the catalog and order pages; the forms and buttons of what it may not do are not there
 * (the server refuses those actions anyway, see roles.test.ts), and read-only details stand in for them.
 */
describe("read-only pages for the roles that may only read", () => {
  useTestDatabase();
  const server = useTestServer();

  it("shows each page's forms and action buttons exactly to the roles whose permission they need", async () => {
    const { organization, apiKey } = await createTenant();
    const api = apiClient(server.url(), apiKey);
    const venue = await createVenue(api);
    const event = await createEvent(api, venue.id);
    const ticket = await createTicket(api, event.id);
    const order = await insertOrder({ organizationId: organization.id, eventId: event.id, ticketTypeId: ticket.id, quantity: 1 });

    // What only a role with the permission sees, and what stands in for it otherwise, on each page.
    const pages: { path: string; permission: Permission; only: string[]; otherwise: string[] }[] = [
      { path: "/events", permission: "catalog", only: [">Create an event<", ">Delete<"], otherwise: [] },
      { path: `/events/${event.id}`, permission: "catalog", only: [">Edit event<", ">Add a ticket type<", ">Cancel event<", ">Delete<"], otherwise: [">Details<"] },
      { path: `/events/${event.id}/ticket-types/${ticket.id}`, permission: "catalog", only: [">Edit ticket type<", ">Save changes<"], otherwise: [">Details<"] },
      { path: "/venues", permission: "catalog", only: [">Create a venue<", ">Delete<"], otherwise: [] },
      { path: `/venues/${venue.id}`, permission: "catalog", only: [">Edit venue<", ">Save changes<"], otherwise: [">Details<"] },
      { path: `/orders/${order.id}`, permission: "refunds", only: [">Refund order<"], otherwise: [] },
      { path: `/orders/${order.id}`, permission: "deliveries", only: [">Webhook deliveries "], otherwise: [] },
    ];
    for (const role of USER_ROLES) {
      const email = `${role}-pages-${organization.id}@example.test`;
      await createUser({ organizationId: organization.id, email, password: TENANT_PASSWORD, role });
      const cookie = await sessionCookie(server.url(), email, TENANT_PASSWORD);
      for (const page of pages) {
        const result = await readResult(await fetch(`${server.url()}${page.path}`, { headers: { Cookie: cookie } }));
        const label = `${role} → ${page.path} (${page.permission})`;
        expect(result.status, label).toBe(200);
        const allowed = can(role, page.permission);
        for (const text of page.only) expect(result.text.includes(text), `${label}: ${text}`).toBe(allowed);
        for (const text of page.otherwise) expect(result.text.includes(text), `${label}: ${text}`).toBe(!allowed);
      }
    }
  });
});
