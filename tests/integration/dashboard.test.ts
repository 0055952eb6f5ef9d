import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import {
  events,
  orders,
  ticketTypes,
  venues,
  webhookDeliveries,
  webhookIntegrations,
  type DeliveryStatus,
  type EventStatus,
  type OrderStatus,
} from "@/db/schema";
import { checkRateLimit } from "@/lib/http/rate-limit";
import {
  clearLoginFailures,
  LOGIN_FAILURE_WINDOW_MS,
  MAX_LOGIN_FAILURES,
  reserveLoginAttempt,
  throttledCheck,
} from "@/lib/auth/login-throttle";
import { checkCredentials } from "@/lib/auth/users";
import { listApiKeys } from "@/lib/dashboard/api-keys";
import { deliveriesQueryOf, listDeliveryPage } from "@/lib/dashboard/deliveries";
import { eventsQueryOf, listEventPage } from "@/lib/dashboard/events";
import { integrationsQueryOf, listIntegrationPage } from "@/lib/dashboard/integrations";
import { carriedParams, listHref, listLinks, listQueryOf, type ListQuery, type SearchParams } from "@/lib/dashboard/paging";
import { listVenuePage, VENUE_LIST } from "@/lib/dashboard/venues";
import { toPublicId } from "@/lib/ids";
import { formatMoney } from "@/lib/dashboard/format";
import { periodSchema, salesOverview } from "@/lib/dashboard/overview";
import { useTestDatabase } from "../support/database";
import { createTenant, TENANT_PASSWORD } from "../support/fixtures";
import { sellTickets } from "../support/order-fixtures";

const NOW = new Date("2026-03-10T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

async function eventOf(organizationId: string, name: string) {
  const [venue] = await db
    .insert(venues)
    .values({ organizationId, name: "Hall", street: "Gatan 1", city: "Malmö", postalCode: "211 20", country: "SE", capacity: 500 })
    .returning();
  const [event] = await db
    .insert(events)
    .values({ organizationId, venueId: venue!.id, name, startsAt: NOW, endsAt: new Date(NOW.getTime() + DAY) })
    .returning();
  return event!;
}

let orderNumber = 0;
async function order(organizationId: string, eventId: string, status: OrderStatus, totalPrice: number, createdAt: Date) {
  orderNumber += 1;
  await db.insert(orders).values({
    organizationId,
    eventId,
    orderNumber,
    status,
    customerEmail: "c@example.test",
    customerName: "C",
    paymentMethod: "card",
    paymentMethodBrand: "visa",
    orderSource: "web",
    currency: "SEK",
    totalPrice,
    originalPrice: totalPrice,
    createdAt,
  });
}

describe("dashboard sales overview", () => {
  useTestDatabase();

  it("summarizes one organization's sales per UTC bucket, against the previous period, with breakdowns", async () => {
    const { organization } = await createTenant();
    const other = await createTenant();
    const concert = await eventOf(organization.id, "Concert");
    const play = await eventOf(organization.id, "Play");
    const foreign = await eventOf(other.organization.id, "Foreign");

    const today = new Date("2026-03-10T00:30:00Z");
    const sixDaysAgo = new Date("2026-03-04T23:59:00Z");
    await order(organization.id, concert.id, "completed", 10_000, today);
    await order(organization.id, concert.id, "completed", 5_000, today);
    await order(organization.id, play.id, "completed", 2_500, sixDaysAgo);
    await order(organization.id, play.id, "refunded", 9_999, today);
    await order(organization.id, play.id, "cancelled", 7_777, today);
    // Just before the 7-day period starts (midnight UTC six days back).
    await order(organization.id, concert.id, "completed", 100_000, new Date("2026-03-03T23:59:59Z"));
    await order(other.organization.id, foreign.id, "completed", 1_000_000, today);

    // Every order the transactions search returns counts (cancelled ones too); refunded orders count in
    // revenue and again in refunded_amount (issue 16's summary figures).
    const week = await salesOverview(organization.id, 7, db, NOW);
    expect(week.bucket).toBe("day");
    expect(week.series).toHaveLength(7);
    expect(week.series[0]).toMatchObject({ key: "2026-03-04", revenue: 2_500, orders: 1 });
    expect(week.series[6]).toMatchObject({ key: "2026-03-10", revenue: 32_776, orders: 4, refunded_orders: 1, refunded_amount: 9_999 });
    expect(week.series.slice(1, 6).every((d) => d.revenue === 0 && d.orders === 0)).toBe(true);
    expect(week.totals).toMatchObject({ revenue: 35_276, orders: 5, refunded_orders: 1, refunded_amount: 9_999 });
    // The previous 7 days hold the order just before the period.
    expect(week.previousTotals).toMatchObject({ revenue: 100_000, orders: 1 });
    expect(week.breakdowns.event.map((e) => [e.label, e.revenue, e.orders])).toEqual([
      ["Play", 20_276, 3],
      ["Concert", 15_000, 2],
    ]);

    const month = await salesOverview(organization.id, 30, db, NOW);
    expect(month.totals.revenue).toBe(135_276);
    expect(month.series).toHaveLength(30);
    const year = await salesOverview(organization.id, 365, db, NOW);
    expect(year.bucket).toBe("week");
    expect(year.series.every((w) => new Date(`${w.key}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect((await salesOverview(organization.id, 730, db, NOW)).bucket).toBe("month");
  });

  it("has an empty overview without orders and falls back to 30 days for an unknown period", async () => {
    const { organization } = await createTenant();
    const overview = await salesOverview(organization.id, 90, db, NOW);
    expect(overview.totals).toEqual({ orders: 0, tickets: 0, revenue: 0, refunded_orders: 0, refunded_amount: 0 });
    expect(overview.breakdowns.event).toEqual([]);
    expect(overview.series).toHaveLength(90);
    expect(periodSchema.parse("365")).toBe(365);
    expect(periodSchema.parse("12")).toBe(30);
    expect(periodSchema.parse(undefined)).toBe(30);
  });

  it("formats minor units in the organization's currency", () => {
    expect(formatMoney(123_456, "SEK")).toBe("SEK\u00a01,234.56");
    expect(formatMoney(5, "EUR")).toBe("€0.05");
  });
});

describe("dashboard API keys", () => {
  useTestDatabase();

  it("lists only the organization's keys, and records when a key was last used", async () => {
    const tenant = await createTenant();
    await createTenant();
    const [before] = await listApiKeys(tenant.organization.id);
    expect(before).toMatchObject({ id: tenant.apiKeyId, lastUsedAt: null, revokedAt: null });
    expect(before).not.toHaveProperty("keyHash");

    // Every API request is counted by rate_limit_hit, which also records the use (to the minute).
    expect((await checkRateLimit(tenant.apiKeyId, 60)).allowed).toBe(true);
    const after = await listApiKeys(tenant.organization.id);
    expect(after).toHaveLength(1);
    expect(after[0]!.lastUsedAt).not.toBeNull();
  });
});

describe("sign-in throttling", () => {
  useTestDatabase();

  it("allows five password checks per address within 15 minutes, case-insensitively, until they age out", async () => {
    const start = new Date("2026-03-10T12:00:00Z");
    for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) expect(await reserveLoginAttempt("Guess@Example.test", db, start)).toBe(true);
    expect(await reserveLoginAttempt("guess@example.test ", db, start)).toBe(true);
    expect(await reserveLoginAttempt("GUESS@example.test", db, start)).toBe(false);
    expect(await reserveLoginAttempt("someone-else@example.test", db, start)).toBe(true);

    const later = new Date(start.getTime() + LOGIN_FAILURE_WINDOW_MS + 1);
    expect(await reserveLoginAttempt("guess@example.test", db, later)).toBe(true);
  });

  it("forgets failures after a successful sign-in", async () => {
    for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) expect(await throttledCheck("user@example.test", async () => null)).toEqual({ throttled: false, user: null });
    expect(await throttledCheck("USER@example.test", async () => "user")).toEqual({ throttled: false, user: "user" });
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) expect((await throttledCheck("user@example.test", async () => null)).throttled).toBe(false);
    expect((await throttledCheck("user@example.test", async () => "user")).throttled).toBe(true);
    await clearLoginFailures("USER@example.test");
    expect((await throttledCheck("user@example.test", async () => "user")).throttled).toBe(false);
  });

  it("checks at most five passwords of an address under 20 parallel wrong guesses, and then refuses the right one", async () => {
    const { user } = await createTenant();
    let checks = 0;
    const guess = (password: string) =>
      throttledCheck(user.email, async () => {
        checks += 1;
        return checkCredentials(user.email, password);
      });

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(`wrong-${i}`)));
    const checked = results.filter((r) => !r.throttled);
    expect(checks).toBe(MAX_LOGIN_FAILURES);
    expect(checked).toHaveLength(MAX_LOGIN_FAILURES);
    expect(checked.every((r) => !r.throttled && r.user === null)).toBe(true);

    // Locked: the right password is refused without being checked.
    expect(await guess(TENANT_PASSWORD)).toEqual({ throttled: true });
    expect(checks).toBe(MAX_LOGIN_FAILURES);
    // Another address is unaffected.
    const other = await createTenant();
    const signedIn = await throttledCheck(other.user.email, () => checkCredentials(other.user.email, TENANT_PASSWORD));
    expect(signedIn).toMatchObject({ throttled: false, user: { id: other.user.id } });
  });
});

/** Every row of a list, page by page, through the same query the dashboard runs for one page. */
async function allPages<Q extends ListQuery<string>, R>(
  query: Q,
  list: (query: Q) => Promise<{ rows: R[]; total: number }>,
): Promise<{ rows: R[]; total: number }> {
  const rows: R[] = [];
  for (let page = 1; ; page++) {
    const result = await list({ ...query, page });
    rows.push(...result.rows);
    if (page * query.perPage >= result.total) return { rows, total: result.total };
  }
}

const byIdThen = (order: "asc" | "desc") => (a: { id: string }, b: { id: string }) =>
  order === "asc" ? a.id.localeCompare(b.id) : b.id.localeCompare(a.id);

async function venueOf(organizationId: string, values: { name: string; capacity: number; createdAt?: Date; deletedAt?: Date }) {
  const [venue] = await db
    .insert(venues)
    .values({ organizationId, street: "Gatan 1", city: "Lund", postalCode: "222 22", country: "SE", ...values })
    .returning();
  return venue!;
}

describe("dashboard lists page, sort and filter on the server", () => {
  useTestDatabase();

  it("builds list links that keep filters, sort and page size, and leave defaults out", () => {
    const spec = { path: "/things", sorts: { created: "desc", name: "asc" }, fallback: "created" } as const;
    const params: SearchParams = { sort: "name", order: "desc", page: "3", per_page: "10" };
    const query = listQueryOf(params, spec);
    expect(query).toEqual({ sort: "name", order: "desc", page: 3, perPage: 10 });
    expect(listHref(spec, { ...query, page: 1 }, { status: "draft", other: undefined })).toBe("/things?status=draft&sort=name&order=desc&per_page=10");
    const links = listLinks(spec, query, 45, { status: "draft" });
    expect(links).toMatchObject({
      pages: 5,
      previous: "/things?status=draft&sort=name&order=desc&page=2&per_page=10",
      next: "/things?status=draft&sort=name&order=desc&page=4&per_page=10",
    });
    // The sorted column flips and starts on page 1; another column starts in its usual direction.
    expect(links.sorting.hrefs).toEqual({
      name: "/things?status=draft&sort=name&per_page=10",
      created: "/things?status=draft&per_page=10",
    });
    expect(carriedParams(spec, query)).toEqual({ sort: "name", order: "desc", per_page: "10" });
    expect(carriedParams(spec, listQueryOf({}, spec))).toEqual({ sort: undefined, order: undefined, per_page: undefined });
  });

  it("pages venues in a total order (ties broken by id) within the organization, deleted ones left out", async () => {
    const { organization } = await createTenant();
    const other = await createTenant();
    const at = new Date("2026-01-01T00:00:00Z");
    for (let i = 0; i < 5; i++) await venueOf(organization.id, { name: i % 2 ? "same" : "Same", capacity: 100, createdAt: at });
    await venueOf(organization.id, { name: "Aaa", capacity: 900, createdAt: new Date(at.getTime() + DAY) });
    await venueOf(organization.id, { name: "Aa deleted", capacity: 50, deletedAt: at });
    await venueOf(other.organization.id, { name: "A foreign venue", capacity: 10 });

    const list = (query: ListQuery<"created" | "name" | "capacity">) => listVenuePage(organization.id, query);
    const byName = await allPages({ ...listQueryOf({ sort: "name", per_page: "2" }, VENUE_LIST) }, list);
    expect(byName.total).toBe(6);
    expect(byName.rows.map((v) => v.name.toLowerCase())).toEqual(["aaa", "same", "same", "same", "same", "same"]);
    // Case-insensitive names tie; the id decides, in the sort's direction, so no row is on two pages.
    expect(byName.rows.slice(1)).toEqual([...byName.rows.slice(1)].sort(byIdThen("asc")));
    expect(new Set(byName.rows.map((v) => v.id)).size).toBe(6);

    const byCapacity = await allPages(listQueryOf({ sort: "capacity", per_page: "4" }, VENUE_LIST), list);
    expect(byCapacity.rows[0]!.name).toBe("Aaa");
    expect(byCapacity.rows.slice(1)).toEqual([...byCapacity.rows.slice(1)].sort(byIdThen("desc")));

    const newest = await list(listQueryOf({}, VENUE_LIST));
    expect(newest.rows[0]!.name).toBe("Aaa");
    expect((await list(listQueryOf({ page: "9" }, VENUE_LIST))).rows).toEqual([]);
  });

  it("pages, sorts and filters events by status, with their venue and ticket totals", async () => {
    const { organization } = await createTenant();
    const other = await createTenant();
    const venue = await venueOf(organization.id, { name: "Hall", capacity: 500 });
    const insertEvent = async (organizationId: string, venueId: string, name: string, status: EventStatus, startsInDays: number) => {
      const startsAt = new Date(NOW.getTime() + startsInDays * DAY);
      const [event] = await db
        .insert(events)
        .values({ organizationId, venueId, name, status, startsAt, endsAt: new Date(startsAt.getTime() + DAY / 4) })
        .returning();
      return event!;
    };
    await insertEvent(organization.id, venue.id, "b draft", "draft", 3);
    const published = await insertEvent(organization.id, venue.id, "a published", "published", 2);
    await insertEvent(organization.id, venue.id, "c cancelled", "cancelled", 1);
    const published2 = await insertEvent(organization.id, venue.id, "d published", "published", 4);
    await db.update(events).set({ deletedAt: NOW }).where(eq(events.id, (await insertEvent(organization.id, venue.id, "gone", "draft", 5)).id));
    const foreignVenue = await venueOf(other.organization.id, { name: "Elsewhere", capacity: 5 });
    await insertEvent(other.organization.id, foreignVenue.id, "foreign", "published", 1);
    for (const [sold, total] of [
      [3, 10],
      [1, 5],
    ]) {
      const [ticket] = await db
        .insert(ticketTypes)
        .values({
          organizationId: organization.id,
          eventId: published.id,
          name: `T${total}`,
          price: 100,
          currency: "SEK",
          quantityTotal: total!,
          saleStartsAt: NOW,
          saleEndsAt: new Date(NOW.getTime() + DAY),
        })
        .returning();
      await sellTickets(ticket!.id, sold!);
    }

    const list = (params: SearchParams) => listEventPage(organization.id, eventsQueryOf(params));
    const names = async (params: SearchParams) => (await list(params)).rows.map((e) => e.name);
    expect(await names({ sort: "starts_at" })).toEqual(["c cancelled", "a published", "b draft", "d published"]);
    expect(await names({ sort: "name", order: "desc" })).toEqual(["d published", "c cancelled", "b draft", "a published"]);
    // Statuses sort in their lifecycle order, not A–Z; equal statuses by id.
    const byStatus = await names({ sort: "status" });
    expect(byStatus[0]).toBe("b draft");
    expect(byStatus.slice(1, 3).sort()).toEqual(["a published", "d published"]);
    expect(byStatus[3]).toBe("c cancelled");

    const publishedOnly = await list({ status: "published", sort: "starts_at", per_page: "1", page: "2" });
    expect(publishedOnly.total).toBe(2);
    expect(publishedOnly.rows).toEqual([
      expect.objectContaining({ id: toPublicId("event", published2.id), venue: "Hall", status: "published", sold: 0, total: 0 }),
    ]);
    const first = (await list({ status: "published", sort: "starts_at" })).rows[0]!;
    expect(first).toMatchObject({ id: toPublicId("event", published.id), sold: 4, total: 15, startsAt: published.startsAt.toISOString() });
    // A status the list does not know is no filter at all.
    expect((await list({ status: "sold_out" })).total).toBe(4);
    expect(eventsQueryOf({ status: "sold_out" }).status).toBeUndefined();
  });

  it("pages and sorts integrations, and filters and sorts deliveries, within the organization", async () => {
    const { organization } = await createTenant();
    const other = await createTenant();
    const integration = async (organizationId: string, url: string, createdAt: Date) => {
      const [row] = await db.insert(webhookIntegrations).values({ organizationId, url, events: ["OrderCompleted"], createdAt }).returning();
      return row!;
    };
    const hookA = await integration(organization.id, "https://b.example.test/hook", NOW);
    const hookB = await integration(organization.id, "https://a.example.test/hook", new Date(NOW.getTime() + 1000));
    const foreign = await integration(other.organization.id, "https://0.example.test/hook", NOW);

    const hooks = (params: SearchParams) => listIntegrationPage(organization.id, integrationsQueryOf(params));
    expect((await hooks({})).rows.map((h) => h.url)).toEqual([hookB.url, hookA.url]);
    expect((await hooks({ sort: "url", order: "desc" })).rows.map((h) => h.url)).toEqual([hookA.url, hookB.url]);
    const paged = await hooks({ sort: "url", per_page: "1", page: "2" });
    expect(paged).toMatchObject({ total: 2, rows: [{ url: hookA.url, enabled: true, signed: false }] });

    const delivery = async (organizationId: string, integrationId: string, status: DeliveryStatus, attemptCount: number) => {
      await db
        .insert(webhookDeliveries)
        .values({ organizationId, integrationId, eventType: "OrderCompleted", payload: "{}", status, attemptCount, createdAt: NOW });
    };
    await delivery(organization.id, hookA.id, "Success", 1);
    await delivery(organization.id, hookA.id, "Failed", 3);
    await delivery(organization.id, hookB.id, "Pending", 0);
    await delivery(organization.id, hookB.id, "PermanentlyFailed", 5);
    await delivery(other.organization.id, foreign.id, "Success", 1);

    const deliveries = (params: SearchParams) => listDeliveryPage(organization.id, deliveriesQueryOf(params));
    const all = await deliveries({});
    expect(all.total).toBe(4);
    // Created at the same moment: the id decides, newest sort first, so the order is total.
    expect(all.rows).toEqual([...all.rows].sort(byIdThen("desc")));
    expect((await deliveries({ sort: "status" })).rows.map((d) => d.status)).toEqual(["Pending", "Success", "Failed", "PermanentlyFailed"]);
    expect((await deliveries({ sort: "attempts" })).rows.map((d) => d.attemptCount)).toEqual([5, 3, 1, 0]);
    expect((await deliveries({ sort: "attempts", order: "asc", per_page: "2", page: "2" })).rows.map((d) => d.attemptCount)).toEqual([3, 5]);

    const ofA = await deliveries({ integration_id: toPublicId("integration", hookA.id), sort: "attempts" });
    expect(ofA.rows.map((d) => [d.integrationUrl, d.attemptCount])).toEqual([
      [hookA.url, 3],
      [hookA.url, 1],
    ]);
    expect((await deliveries({ status: "Failed" })).rows.map((d) => d.status)).toEqual(["Failed"]);
    // Another organization's integration, or a malformed id, matches nothing rather than everything.
    expect((await deliveries({ integration_id: toPublicId("integration", foreign.id) })).total).toBe(0);
    expect((await deliveries({ integration_id: "garbage" })).total).toBe(0);
    expect(deliveriesQueryOf({ status: "Lost", sort: "payload" })).toMatchObject({ statuses: undefined, sort: "created", order: "desc" });
    // Several statuses, repeated (checkboxes) or comma separated (links); the order filter is not the sort order.
    expect(deliveriesQueryOf({ status: ["Success", "Failed,PermanentlyFailed"], order: "asc", order_id: "1042" })).toMatchObject({
      statuses: ["Success", "Failed", "PermanentlyFailed"],
      order: "asc",
      orderRef: "1042",
    });
    expect((await deliveries({ status: "Failed,PermanentlyFailed" })).rows.map((d) => d.status).sort()).toEqual(["Failed", "PermanentlyFailed"]);
  });
});
