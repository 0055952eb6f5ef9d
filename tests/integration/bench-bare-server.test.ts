import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { openDatabase, setDatabaseHandle, type DatabaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { createApiKey } from "@/lib/auth/api-keys";
import { listEvents } from "@/lib/catalog/events";
import { listTicketTypes } from "@/lib/catalog/ticket-types";
import { listVenues } from "@/lib/catalog/venues";
import { createOrder } from "@/lib/orders/create-order";
import { getOrder, listOrders } from "@/lib/orders/orders";
import { createOrganization } from "@/lib/organizations/organizations";
import { startBareServer, type Target } from "../../bench/support/app-vs-bare";
import { expectStatus, type Api } from "../support/catalog";
import { apiClient } from "../support/fixtures";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { createScratchDatabase, DEFAULT_TEST_SERVER_URL, type ScratchDatabase } from "../support/scratch-database";

type Rows = { data: Record<string, unknown>[] };

/**
 * `npm run bench` measures the app against bench/bare-server.ts, which is to run the same SQL as the app does. Its
 * answers must therefore carry the facts the app's own functions return: a reference that reads less (as it did for a
 * ticket type's tickets sold, derived from the stock buckets) makes the app look slower than it is. PostgreSQL only,
 * as the reference server is.
 */
describe("the benchmark's bare reference server", () => {
  let database: ScratchDatabase;
  let handle: DatabaseHandle;
  let bare: { target: Target; process: ChildProcess };
  let organizationId: string;
  let api: Api;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.TEST_DATABASE_URL || DEFAULT_TEST_SERVER_URL, "bare");
    handle = openDatabase({ url: database.url, poolMax: 4 });
    await runMigrations(handle);
    setDatabaseHandle(handle);
    organizationId = (await createOrganization({ name: "Bare", currency: "SEK" })).id;
    const { key } = await createApiKey({ organizationId, name: "bench", scopes: ["*"], rateLimitPerMinute: 1_000_000 });
    bare = await startBareServer(database.url);
    api = apiClient(bare.target.baseUrl, key);
  });

  afterAll(async () => {
    bare?.process.kill();
    setDatabaseHandle(undefined);
    await handle?.close();
    await database?.drop();
  });

  const get = async <T>(path: string) => expectStatus<T>(await api(path), 200);

  it("answers its /v1 endpoints with the rows, counts and tickets sold the app's functions return", async () => {
    const catalog = await insertCatalog(organizationId, { tickets: [{ quantitySold: 7 }, { quantityTotal: 40, quantitySold: 40 }] });
    const order = await createOrder(organizationId, oneTicketOrderBody(catalog));

    const tickets = await get<Rows>(`/v1/events/${catalog.eventId}/tickets`);
    const appTickets = (await listTicketTypes(organizationId, catalog.eventId)).data;
    expect(tickets.data.map((row) => [row.id, row.quantity_sold])).toEqual(appTickets.map((ticket) => [ticket.id, ticket.quantity_sold]));
    expect(appTickets.map((ticket) => ticket.quantity_sold).sort((a, b) => a - b)).toEqual([8, 40]);

    const page = { page: 1, per_page: 25 };
    const events = await get<Rows & { meta: { total: number } }>("/v1/events");
    const appEvents = await listEvents(organizationId, page);
    expect([events.data.map((row) => row.id), events.meta.total]).toEqual([appEvents.data.map((event) => event.id), appEvents.meta.total]);

    const venues = await get<Rows>("/v1/venues");
    expect(venues.data.map((row) => row.id)).toEqual((await listVenues(organizationId)).data.map((venue) => venue.id));

    const orders = await get<Rows & { total_count: number }>("/v1/orders");
    const appOrders = await listOrders(organizationId, page);
    expect([orders.data.map((row) => row.id), orders.total_count]).toEqual([appOrders.data.map((row) => row.id), appOrders.meta.total]);

    const one = await get<{ id: string; items: unknown[] }>(`/v1/orders/${order.id}`);
    expect([one.id, one.items.length]).toEqual([order.id, (await getOrder(organizationId, order.id)).items.length]);
  });
});
