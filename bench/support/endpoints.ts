import type postgres from "postgres";
import { toPublicId } from "@/lib/ids";

/** What the API endpoints' paths are made of: some of the measured organization's orders and one of its events. */
export interface EndpointSamples {
  orderIds: string[];
  eventId: string;
}

/**
 * An API endpoint as the benchmarks call it. `kind` picks its target: transactions pages (size 100 and up) must
 * stay within 1.5x of the bare server, single rows and small lists within 2x.
 */
export interface ApiEndpoint {
  name: string;
  kind: "page" | "small";
  path: (i: number) => string;
}

/** 500 random orders and the first event of the organization (public ids). */
export async function endpointSamples(sqlc: postgres.Sql, organizationId: string): Promise<EndpointSamples> {
  const orders = await sqlc<{ id: string }[]>`
    select id from orders where organization_id = ${organizationId} order by random() limit 500`;
  const [event] = await sqlc<{ id: string }[]>`
    select id from events where organization_id = ${organizationId} and deleted_at is null order by created_at limit 1`;
  return { orderIds: orders.map((row) => toPublicId("order", row.id)), eventId: toPublicId("event", event!.id) };
}

/** Every read endpoint the app and the bare reference server both serve. */
export function apiEndpoints({ orderIds, eventId }: EndpointSamples): ApiEndpoint[] {
  const transactions = (size: number): ApiEndpoint => ({
    name: `transactions first page, size ${size}`,
    kind: "page",
    path: () => `/analytics_search/api/transactions?sort=date&size=${size}`,
  });
  return [
    { name: "GET /v1/orders/:id", kind: "small", path: (i) => `/v1/orders/${orderIds[i % orderIds.length]}` },
    { name: "GET /v1/orders (page 1)", kind: "small", path: () => "/v1/orders" },
    { name: "GET /v1/events", kind: "small", path: () => "/v1/events" },
    { name: "GET /v1/venues", kind: "small", path: () => "/v1/venues" },
    { name: "GET /v1/events/:id/tickets", kind: "small", path: () => `/v1/events/${eventId}/tickets` },
    transactions(100),
    transactions(1000),
  ];
}
