import { beforeEach, describe, expect, it } from "vitest";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { expectError, expectStatus } from "../support/catalog";
import { csvObjects, parseCsv } from "../support/csv";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog, insertOrders } from "../support/order-fixtures";
import { insertRandomSales } from "../support/sales-fixtures";
import { useTestServer } from "../support/server";

const EXPORT = "/analytics_search/api/transactions/export";
const ORDER_HEADER = [
  "order_number", "order_uuid", "created_at", "event_id", "event_name", "customer_name", "email", "phone_number", "currency",
  "total_price", "original_price", "tickets", "is_refunded", "order_source", "payment_method", "payment_method_brand",
  "refunded_at", "refund_reason",
];

describe("GET /analytics_search/api/transactions/export", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: ReturnType<typeof apiClient>;

  beforeEach(async () => {
    tenant = await createTenant({ currency: "SEK", rateLimitPerMinute: 50 });
    api = apiClient(server.url(), tenant.apiKey);
  });

  async function exportText(query: string): Promise<string> {
    const response = await api(`${EXPORT}?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return response.text();
  }

  async function searchUuids(query: string): Promise<string[]> {
    const uuids: string[] = [];
    for (let from = 0; ; from += 1000) {
      const page = await expectStatus<{ data: { orders: { uuid: string }[] } }>(
        await api(`/analytics_search/api/transactions?size=1000&from=${from}&${query}`),
        200,
      );
      uuids.push(...page.data.orders.map((order) => order.uuid));
      if (page.data.orders.length < 1000) return uuids;
    }
  }

  it("writes RFC 4180 CSV with a header row, UTF-8 text, minor units and ISO times, neutralising formula cells", async () => {
    const catalog = await insertCatalog(tenant.organization.id, { eventName: "Opera, \"Carmen\"" });
    const names = ['Doe, "Jane"\nSecond line', "=HYPERLINK(\"http://x.test\")", "+46 70", "-1+1", "@SUM(A1)", "\tTab", "\rReturn", "Åsa Öberg 🎫"];
    const rows = await insertOrders(
      tenant.organization.id,
      catalog.event,
      catalog.tickets[0]!.row,
      names.map((customerName, index) => ({ customerName, createdAt: new Date(Date.UTC(2026, 2, 1, 12, 0, index)), totalPrice: 10_050 + index })),
    );
    const response = await api(`${EXPORT}?sort=date&order=asc`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="transactions-\d{8}-\d{6}\.csv"$/);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await response.arrayBuffer());
    expect(parseCsv(text)[0]).toEqual(ORDER_HEADER);
    const records = csvObjects(text);
    expect(records.map((r) => r.customer_name)).toEqual([
      'Doe, "Jane"\nSecond line',
      "'=HYPERLINK(\"http://x.test\")",
      "'+46 70",
      "'-1+1",
      "'@SUM(A1)",
      "'\tTab",
      "'\rReturn",
      "Åsa Öberg 🎫",
    ]);
    expect(records[0]).toMatchObject({
      order_number: String(rows[0]!.orderNumber),
      order_uuid: rows[0]!.id,
      created_at: "2026-03-01T12:00:00.000Z",
      event_id: catalog.eventId,
      event_name: 'Opera, "Carmen"',
      currency: "SEK",
      total_price: "10050",
      tickets: "1",
      is_refunded: "false",
      phone_number: "",
    });
  });

  it("exports exactly the search's orders in its order for each filter and sort, across pages and ties", async () => {
    await bulkSeedOrders(tenant.organization.id, 2_300, { chunkSize: 1_000, now: new Date("2026-06-01T00:00:00Z") });
    const cases = [
      "",
      "sort=price&order=asc",
      "sort=customer_name&order=desc&date_from=2025-09-01&date_to=2026-02-10T12:00:00Z",
      "is_refunded=true&sort=price",
      "q=an",
      "order_source=app&payment_method=swish&sort=price&order=asc",
    ];
    for (const query of cases) {
      const exported = csvObjects(await exportText(query)).map((r) => r.order_uuid);
      expect(exported, query).toEqual(await searchUuids(query));
    }
  }, 120_000);

  it("writes JSON Lines with typed values, and one row per cart item with rows=items", async () => {
    const { rows } = await insertRandomSales(tenant.organization.id, { seed: 11, count: 40, start: new Date("2026-01-01T00:00:00Z"), days: 20 });
    const response = await api(`${EXPORT}?format=jsonl&sort=date&order=asc`);
    expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get("content-disposition")).toMatch(/filename="transactions-\d{8}-\d{6}\.jsonl"/);
    const lines = (await response.text()).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(40);
    expect(Object.keys(lines[0]!)).toEqual(ORDER_HEADER);
    const first = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))[0]!;
    expect(lines[0]).toMatchObject({ order_uuid: first.id, total_price: first.totalPrice, is_refunded: first.status === "refunded", created_at: first.createdAt.toISOString() });

    const summary = await expectStatus<{ data: { totals: { tickets: number } } }>(await api("/analytics_search/api/summary"), 200);
    const items = csvObjects(await exportText("rows=items"));
    expect(items.reduce((sum, item) => sum + Number(item.quantity), 0)).toBe(summary.data.totals.tickets);
    expect(items.every((item) => Number(item.line_total) === Number(item.quantity) * Number(item.unit_price))).toBe(true);
    expect(new Set(items.map((item) => item.order_uuid)).size).toBe(40);
    expect(items[0]).toHaveProperty("ticket_type_id");
    const jsonItems = (await exportText("rows=items&format=jsonl")).trimEnd().split("\n");
    expect(jsonItems).toHaveLength(items.length);
  });

  it("streams: the first rows arrive while the export is still running, and the whole export is one request", async () => {
    await bulkSeedOrders(tenant.organization.id, 5_000, { chunkSize: 5_000 });
    const response = await api(EXPORT);
    expect(response.status).toBe(200);
    const remaining = Number(response.headers.get("x-ratelimit-remaining"));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (text.split("\r\n").length < 3) {
      const chunk = await reader.read();
      expect(chunk.done).toBe(false);
      text += decoder.decode(chunk.value, { stream: true });
    }
    // Rows have arrived, yet far from all of them: the rest is still being read from the database.
    expect(text.split("\r\n").length - 2).toBeLessThan(5_000);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    expect(parseCsv(text)).toHaveLength(5_001);
    const after = await api(`${EXPORT}?q=nobody-matches-this`);
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
    expect(parseCsv(await after.text())).toEqual([ORDER_HEADER]);
  }, 60_000);

  it("refuses bad parameters with a 400 naming them, and keys without orders:read", async () => {
    await expectError(await api(`${EXPORT}?format=xlsx&rows=tickets&sort=nope`), 400, "validation_failed", ["format", "rows", "sort"]);
    const other = await createTenant({ scopes: ["events:read"] });
    await expectError(await apiClient(server.url(), other.apiKey)(EXPORT), 403, "forbidden");
  });
});
