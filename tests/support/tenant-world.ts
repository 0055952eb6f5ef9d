import { eq, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { memberships, webhookDeliveries } from "@/db/schema";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { createIntegration } from "@/lib/webhooks/integrations";
import { createEvent, createTicket, createVenue, expectStatus, type Api } from "./catalog";
import { apiClient, createTenant } from "./fixtures";
import { waitForStatus } from "./webhooks";

/** An organization with one of everything, made through the API where there is an endpoint for it. */
export interface TenantWorld {
  label: string;
  tenant: Awaited<ReturnType<typeof createTenant>>;
  /** Calls with the organization's `*` key. */
  api: Api;
  /** Calls with the organization's dashboard user token. */
  user: Api;
  venueId: string;
  eventId: string;
  ticketId: string;
  orderId: string;
  orderUuid: string;
  orderNumber: number;
  customerEmail: string;
  customerName: string;
  membershipId: string;
  integrationId: string;
  deliveryId: string;
}

/**
 * Venue, published event, ticket type and a completed order (API), a membership (no API creates them)
 * and the order's webhook delivery to `hookUrl`, waited for until it succeeded so nothing changes later.
 */
export async function seedTenantWorld(baseUrl: string, hookUrl: string, label: string): Promise<TenantWorld> {
  const tenant = await createTenant({ name: `Organization ${label}` });
  const organizationId = tenant.organization.id;
  const api = apiClient(baseUrl, tenant.apiKey);
  const integration = await createIntegration({ organizationId, url: hookUrl });
  const venue = await createVenue(api, { name: `Venue ${label}` });
  const event = await createEvent(api, venue.id, { name: `Event ${label}`, status: "published" });
  const ticket = await createTicket(api, event.id, { name: `Ticket ${label}` });
  const customerEmail = `buyer-${label}-${organizationId.slice(0, 8)}@example.test`;
  const customerName = `Buyer ${label} ${organizationId.slice(0, 8)}`;
  const order = await expectStatus<{ id: string; order_number: number }>(
    await api("/v1/orders", {
      method: "POST",
      body: { event_id: event.id, customer: { email: customerEmail, name: customerName }, items: [{ ticket_id: ticket.id, quantity: 2 }] },
    }),
    201,
  );
  const [membership] = await db
    .insert(memberships)
    .values({
      organizationId,
      customerEmail,
      customerName,
      plan: "Gold",
      status: "active",
      startsAt: new Date("2026-01-01T00:00:00Z"),
      endsAt: new Date("2027-01-01T00:00:00Z"),
    })
    .returning();
  const [delivery] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.organizationId, organizationId));
  await waitForStatus(delivery!.id, ["Success"]);
  return {
    label,
    tenant,
    api,
    user: apiClient(baseUrl, tenant.userToken),
    venueId: venue.id,
    eventId: event.id,
    ticketId: ticket.id,
    orderId: order.id,
    orderUuid: fromPublicId("order", order.id)!,
    orderNumber: order.order_number,
    customerEmail,
    customerName,
    membershipId: toPublicId("membership", membership!.id),
    integrationId: integration.id,
    deliveryId: toPublicId("delivery", delivery!.id),
  };
}

// Every table of business data. Left out: rate_limit_counters (every request counts) and login_attempts.
const DATA_TABLES = [
  "organizations",
  "users",
  "api_keys",
  "venues",
  "events",
  "ticket_types",
  "campaigns",
  "memberships",
  "orders",
  "order_items",
  "order_campaigns",
  "webhook_integrations",
  "webhook_deliveries",
  "webhook_attempts",
  "idempotency_keys",
] as const;

// Bookkeeping a read may write: the rate-limit function stamps a key's last use (once a minute).
const VOLATILE_COLUMNS: Partial<Record<(typeof DATA_TABLES)[number], string[]>> = { api_keys: ["last_used_at"] };

/** Row count and a hash of every row per data table: equal snapshots mean no row was added, changed or removed. */
export async function snapshotTables(): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of DATA_TABLES) {
    const volatile = (VOLATILE_COLUMNS[table] ?? []).map((column) => `'${column}'`).join(", ");
    const rowText = `(to_jsonb(t) - array[${volatile}]::text[])::text`;
    const [row] = rowsOf<{ rows: number | string; hash: string | null }>(
      await db.execute(
        sql.raw(`select count(*) as rows, md5(string_agg(${rowText}, '|' order by ${rowText})) as hash from "${table}" t`),
      ),
    );
    snapshot[table] = `${row!.rows} rows, ${row!.hash ?? "empty"}`;
  }
  return snapshot;
}
