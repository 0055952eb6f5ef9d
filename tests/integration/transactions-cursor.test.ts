import { beforeEach, describe, expect, it } from "vitest";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { expectError, expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog, insertOrders, type OrderSeed } from "../support/order-fixtures";
import { useTestServer } from "../support/server";

interface Page {
  data: { total_count: number; orders: { uuid: string }[]; next_cursor?: string };
}

const PATH = "/analytics_search/api/transactions";

describe("transactions search: cursor paging and q", () => {
  useTestDatabase();
  const server = useTestServer();
  let organizationId: string;
  let api: ReturnType<typeof apiClient>;

  beforeEach(async () => {
    const tenant = await createTenant({ currency: "SEK" });
    organizationId = tenant.organization.id;
    api = apiClient(server.url(), tenant.apiKey);
  });

  async function page(query: string): Promise<Page> {
    return expectStatus<Page>(await api(`${PATH}?${query}`), 200);
  }

  async function seed(seeds: OrderSeed[]) {
    const catalog = await insertCatalog(organizationId);
    return insertOrders(organizationId, catalog.event, catalog.tickets[0]!.row, seeds);
  }

  /** Every page by cursor, checking the count on each and that only the last page lacks next_cursor. */
  async function walkByCursor(query: string, size: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    let total: number | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const body = await page(`${query}&size=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      total ??= body.data.total_count;
      expect(body.data.total_count).toBe(total);
      seen.push(...body.data.orders.map((o) => o.uuid));
      cursor = body.data.next_cursor;
      if (!cursor) {
        expect(seen).toHaveLength(total);
        return seen;
      }
      expect(body.data.orders).toHaveLength(size);
    }
    throw new Error("the cursor walk did not end");
  }

  async function walkByOffset(query: string, size: number): Promise<string[]> {
    const seen: string[] = [];
    for (let from = 0; ; from += size) {
      const body = await page(`${query}&size=${size}&from=${from}`);
      seen.push(...body.data.orders.map((o) => o.uuid));
      if (from + size >= body.data.total_count) return seen;
    }
  }

  it("walks a whole result set with ties exactly as the offset walk does, for every sort, order and filter", async () => {
    const base = Date.parse("2026-05-01T10:00:00Z");
    await seed(
      Array.from({ length: 23 }, (_, i) => ({
        // Ties on every key.
        createdAt: new Date(base + (i % 3 === 0 ? 0 : (i % 4) * 1000)),
        totalPrice: [1_000, 2_000, 2_000, 5_000][i % 4],
        customerName: ["anna", "Anna", "Bo", "carl"][i % 4],
        status: i % 5 === 0 ? "refunded" : "completed",
      })),
    );
    for (const filter of ["", "&is_refunded=false", "&q=ann", "&date_from=2026-05-01T10:00:01Z"]) {
      for (const sort of ["date", "price", "customer_name"]) {
        for (const order of ["asc", "desc"]) {
          const query = `sort=${sort}&order=${order}${filter}`;
          const byOffset = await walkByOffset(query, 4);
          expect(await walkByCursor(query, 4), query).toEqual(byOffset);
          expect(byOffset.length, query).toBeGreaterThan(4);
        }
      }
    }
  });

  it("continues exactly after created_at values with microseconds, which a JS Date would round away", async () => {
    // Bulk-seeded purchase times carry random microseconds.
    await bulkSeedOrders(organizationId, 30);
    for (const order of ["asc", "desc"]) {
      const query = `sort=date&order=${order}`;
      expect(await walkByCursor(query, 7)).toEqual(await walkByOffset(query, 7));
    }
  });

  it("answers offsets past the middle (read from the other end of the sort index) with the rows of the offset order", async () => {
    const total = 2_500;
    await bulkSeedOrders(organizationId, total);
    for (const filter of ["", "&is_refunded=false"]) {
      for (const sort of ["date", "price", "customer_name"]) {
        for (const order of ["asc", "desc"]) {
          const query = `sort=${sort}&order=${order}${filter}`;
          // Cursor pages always read forwards: the order every offset page must agree with.
          const whole = await walkByCursor(query, 1000);
          const matches = whole.length;
          expect(matches, query).toBeGreaterThan(total / 2);
          for (const from of [1_000, Math.floor(matches / 2), matches - 101, matches - 100, matches - 1, matches, matches + 50]) {
            const body = await page(`${query}&size=100&from=${from}`);
            expect(body.data.total_count, `${query} from=${from}`).toBe(matches);
            expect(body.data.orders.map((o) => o.uuid), `${query} from=${from}`).toEqual(whole.slice(from, from + 100));
            expect(body.data.next_cursor !== undefined, `${query} from=${from}`).toBe(from + 100 < matches);
          }
        }
      }
    }
  });

  it("refuses a cursor for another sort or filters, a malformed one, and one combined with from, naming cursor", async () => {
    await seed([{}, {}, {}]);
    const { next_cursor } = (await page("sort=price&order=asc&size=1&is_refunded=false")).data;
    expect(next_cursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(next_cursor!);
    // Size may change between pages.
    expect((await page(`sort=price&order=asc&size=2&is_refunded=false&cursor=${cursor}`)).data.orders).toHaveLength(2);
    for (const query of [
      `sort=price&order=desc&is_refunded=false&cursor=${cursor}`,
      `sort=date&order=asc&is_refunded=false&cursor=${cursor}`,
      `sort=price&order=asc&cursor=${cursor}`,
      `sort=price&order=asc&is_refunded=false&q=abc&cursor=${cursor}`,
      `sort=price&order=asc&is_refunded=false&from=1&cursor=${cursor}`,
      "cursor=not-a-cursor",
      `cursor=${Buffer.from('{"f":"x","k":"1","i":"nope"}').toString("base64url")}`,
      "cursor=",
    ]) {
      await expectError(await api(`${PATH}?${query}`), 400, "validation_failed", ["cursor"]);
    }
  });

  it("matches q as a plain case-insensitive substring: LIKE wildcards and backslashes in it are literal", async () => {
    const rows = await seed([
      { customerName: "Ada Lovelace", customerEmail: "ada@example.test" },
      { customerName: "Odd_Name 100%", customerEmail: "odd\\one@example.test" },
    ]);
    const ids = async (q: string) => (await page(`q=${encodeURIComponent(q)}`)).data.orders.map((o) => o.uuid);
    expect(await ids("a_a")).toEqual([]);
    expect(await ids("d_n")).toEqual([rows[1]!.id]);
    expect(await ids("100%")).toEqual([rows[1]!.id]);
    expect(await ids("%%%")).toEqual([]);
    expect(await ids("d\\o")).toEqual([rows[1]!.id]);
    expect(await ids("LOVEL")).toEqual([rows[0]!.id]);
    expect(await ids("a%e")).toEqual([]);
    // The count of q's matches holds on a page past the end too, which has no row to count on.
    expect((await page("q=example&from=5")).data).toEqual({ total_count: 2, orders: [] });
    expect((await page("q=example&size=1")).data.total_count).toBe(2);
  });
});
