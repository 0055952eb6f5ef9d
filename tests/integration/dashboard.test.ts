import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { events, orders, venues, type OrderStatus } from "@/db/schema";
import { checkRateLimit } from "@/lib/http/rate-limit";
import {
  clearLoginFailures,
  isLoginThrottled,
  LOGIN_FAILURE_WINDOW_MS,
  MAX_LOGIN_FAILURES,
  recordLoginFailure,
} from "@/lib/auth/login-throttle";
import { listApiKeys } from "@/lib/dashboard/api-keys";
import { formatMoney } from "@/lib/dashboard/format";
import { periodSchema, salesOverview } from "@/lib/dashboard/overview";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

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

  it("aggregates one organization's completed revenue per UTC day, top events and refund rate", async () => {
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

    const week = await salesOverview(organization.id, 7, db, NOW);
    expect(week.daily).toHaveLength(7);
    expect(week.daily[0]).toEqual({ day: "2026-03-04", revenue: 2_500, orders: 1 });
    expect(week.daily[6]).toEqual({ day: "2026-03-10", revenue: 15_000, orders: 2 });
    expect(week.daily.slice(1, 6).every((d) => d.revenue === 0 && d.orders === 0)).toBe(true);
    expect(week.revenue).toBe(17_500);
    expect(week.completedOrders).toBe(3);
    expect(week.refundedOrders).toBe(1);
    expect(week.refundRate).toBeCloseTo(1 / 4);
    expect(week.topEvents.map((e) => [e.name, e.revenue, e.orders])).toEqual([
      ["Concert", 15_000, 2],
      ["Play", 2_500, 1],
    ]);

    const month = await salesOverview(organization.id, 30, db, NOW);
    expect(month.revenue).toBe(117_500);
    expect(month.daily).toHaveLength(30);
  });

  it("has an empty overview without orders and falls back to 30 days for an unknown period", async () => {
    const { organization } = await createTenant();
    const overview = await salesOverview(organization.id, 90, db, NOW);
    expect(overview).toMatchObject({ revenue: 0, completedOrders: 0, refundRate: 0, topEvents: [] });
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

  it("refuses an address after five failures within 15 minutes, case-insensitively, until they age out", async () => {
    const start = new Date("2026-03-10T12:00:00Z");
    for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) await recordLoginFailure("Guess@Example.test", db, start);
    expect(await isLoginThrottled("guess@example.test", db, start)).toBe(false);
    await recordLoginFailure("guess@example.test ", db, start);
    expect(await isLoginThrottled("GUESS@example.test", db, start)).toBe(true);
    expect(await isLoginThrottled("someone-else@example.test", db, start)).toBe(false);

    const later = new Date(start.getTime() + LOGIN_FAILURE_WINDOW_MS + 1);
    expect(await isLoginThrottled("guess@example.test", db, later)).toBe(false);
  });

  it("forgets failures after a successful sign-in", async () => {
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) await recordLoginFailure("user@example.test");
    expect(await isLoginThrottled("user@example.test")).toBe(true);
    await clearLoginFailures("USER@example.test");
    expect(await isLoginThrottled("user@example.test")).toBe(false);
  });
});
