import { beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { orders } from "@/db/schema";
import { PgDialect } from "drizzle-orm/pg-core";
import { qAlternatives, qTermsOf } from "@/lib/orders/transactions-filters";
import { expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCatalog, insertOrders } from "../support/order-fixtures";
import { useTestServer } from "../support/server";

interface Envelope {
  data: { total_count: number; orders: { uuid: string }[]; next_cursor?: string };
}

const PATH = "/analytics_search/api/transactions";

/** The index names in the plan of `condition` on orders, with sequential scans off so that any usable index shows. */
async function indexesPlannedFor(condition: ReturnType<typeof sql>): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const plan = rowsOf<Record<string, string>>(await tx.execute(sql`explain select ${orders.id} from ${orders} where ${condition}`))
      .map((row) => Object.values(row)[0])
      .join("\n");
    return [...plan.matchAll(/Index Scan on (\w+)/g)].map((match) => match[1]!);
  });
}

describe("q of four or more digits in phones", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;

  beforeEach(async () => {
    tenant = await createTenant();
  });

  const dialect = new PgDialect();
  const phoneAlternative = (q: string) =>
    qAlternatives(tenant.organization.id, qTermsOf(q)).find((alternative) => dialect.sqlToQuery(alternative.row).sql.includes("customer_phone"))!;

  it("reads the phones by their runs of four digits, and by trigrams when `q` has fewer digits or other characters", async () => {
    expect(qTermsOf("278260").phoneDigits).toBe("278260");
    expect(qTermsOf("0012").phoneDigits).toBe("0012");
    expect(qTermsOf("012").phoneDigits).toBeUndefined();
    expect(qTermsOf("+4670").phoneDigits).toBeUndefined();

    expect(await indexesPlannedFor(phoneAlternative("278260").indexed)).toEqual(["orders_customer_phone_digit_grams_idx"]);
    expect(await indexesPlannedFor(phoneAlternative("012").indexed)).toEqual(["orders_customer_phone_trgm_idx"]);
    expect(await indexesPlannedFor(phoneAlternative("+4670").indexed)).toEqual(["orders_customer_phone_trgm_idx"]);
  });

  it("keeps every window of four digits and no other, as the database writes them", async () => {
    const grams = async (value: string | null) =>
      rowsOf<{ grams: number[] | null }>(await db.execute(sql`select digit_grams(${value}::text) as grams`))[0]!.grams;
    expect(await grams("+46701234")).toEqual([4670, 6701, 7012, 123, 1234]);
    expect(await grams("+46 70-555 1234")).toEqual([1234]);
    expect(await grams("0012 ５６７８")).toEqual([12]);
    expect(await grams("123")).toEqual([]);
    expect(await grams("")).toEqual([]);
    expect(await grams(null)).toBeNull();
  });

  it("finds exactly the phones that hold `q`, at any depth of a cursor walk, and follows a changed phone", async () => {
    const catalog = await insertCatalog(tenant.organization.id);
    const rows = await insertOrders(tenant.organization.id, catalog.event, catalog.tickets[0]!.row, [
      { customerPhone: "+46701234567" },
      { customerPhone: "+46 70 555 1234" },
      // Holds every window of 12345 (1234 and 2345), but not 12345 itself.
      { customerPhone: "1234-2345" },
      { customerPhone: "0012 3456" },
      { customerPhone: null },
    ]);
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{ customerPhone: "+46701234567" }]);
    const api = apiClient(server.url(), tenant.apiKey);
    const search = async (query: string) => (await expectStatus<Envelope>(await api(`${PATH}?${query}`), 200)).data;
    const found = async (q: string) => {
      const data = await search(`q=${encodeURIComponent(q)}`);
      expect(data.total_count).toBe(data.orders.length);
      return data.orders.map((o) => o.uuid).sort();
    };
    const id = (i: number) => rows[i]!.id;
    const sorted = (...values: string[]) => [...values].sort();

    expect(await found("1234")).toEqual(sorted(id(0), id(1), id(2)));
    expect(await found("12345")).toEqual([id(0)]);
    expect(await found("0012")).toEqual([id(3)]);
    expect(await found("00123")).toEqual([]);
    expect(await found("46701234567")).toEqual([id(0)]);
    expect(await found("9999")).toEqual([]);

    // A cursor page counts its matches apart from the page (qFilter), by the same indexes.
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await search(`q=1234&size=1${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.total_count).toBe(3);
      walked.push(...page.orders.map((o) => o.uuid));
      cursor = page.next_cursor;
    } while (cursor);
    expect(walked.sort()).toEqual(sorted(id(0), id(1), id(2)));

    await db.update(orders).set({ customerPhone: "+46 8 9999 00" }).where(eq(orders.id, id(0)));
    expect(await found("1234")).toEqual(sorted(id(1), id(2)));
    expect(await found("9999")).toEqual([id(0)]);
  });
});
