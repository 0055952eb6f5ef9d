import { randomUUID } from "node:crypto";
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, preparedPerShape, rowsOf, setDatabaseHandle, type DatabaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { apiKeys } from "@/db/schema";
import { authenticateApiKeyAndHit, createApiKey } from "@/lib/auth/api-keys";
import { toPublicId } from "@/lib/ids";
import { createOrder } from "@/lib/orders/create-order";
import { getOrder, listOrders } from "@/lib/orders/orders";
import { listEvents } from "@/lib/catalog/events";
import { listVenues } from "@/lib/catalog/venues";
import { createOrganization } from "@/lib/organizations/organizations";
import { insertCatalog, oneTicketOrderBody } from "../support/order-fixtures";
import { createScratchDatabase, DEFAULT_TEST_SERVER_URL, type ScratchDatabase } from "../support/scratch-database";

// PostgreSQL only (the embedded PGlite has no connections to prepare on): a database of its own on the test server.
describe("drizzle's queries on PostgreSQL", () => {
  let database: ScratchDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.TEST_DATABASE_URL || DEFAULT_TEST_SERVER_URL, "prepared");
    // One connection, so the statements asked about are that session's.
    handle = openDatabase({ url: database.url, poolMax: 1 });
    await runMigrations(handle);
  });

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  const dialect = new PgDialect();
  const generic = (query: SQL) => handle.executeGeneric(dialect.sqlToQuery(query));

  const prepared = async () =>
    rowsOf<{ statement: string }>(await handle.db.execute(sql`select statement from pg_prepared_statements`)).map((row) => row.statement);

  it("are prepared statements, still planned for each execution's values", async () => {
    await handle.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, randomUUID()));
    expect((await prepared()).some((statement) => statement.includes('from "api_keys" where "api_keys"."id" = $1'))).toBe(true);
    expect(rowsOf(await handle.db.execute(sql`show plan_cache_mode`))).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
  });

  it("inside transactions too, but not with more parameters than a bounded number of texts allows", async () => {
    const ids = Array.from({ length: 65 }, () => randomUUID());
    await handle.db.transaction(async (tx) => {
      await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.name, "in a transaction"));
      await tx.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, ids));
    });
    const statements = await prepared();
    expect(statements.some((statement) => statement.includes('where "api_keys"."name" = $1'))).toBe(true);
    expect(statements.some((statement) => statement.includes("$65"))).toBe(false);
  });

  it("executeGeneric runs on sessions of its own that plan once for any values; the main pool's plan each execution", async () => {
    const named = (name: string) => sql`select ${apiKeys.name} as name from ${apiKeys} where ${apiKeys.name} = ${name} or ${name} = 'any'`;
    const plansOf = sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like ${'%or $2 = %'}`;
    expect(await generic(named("first"))).toEqual([]);
    expect(await generic(named("second"))).toEqual([]);
    // One connection in that pool too (no more than the main pool's), so plansOf reads the session that ran them.
    expect(await generic(plansOf)).toEqual([{ generic_plans: 2, custom_plans: 0 }]);
    expect(rowsOf(await handle.db.execute(plansOf))).toEqual([]);
    expect(rowsOf(await handle.db.execute(sql`show plan_cache_mode`))).toEqual([{ plan_cache_mode: "force_custom_plan" }]);

    // A failing statement rejects with its own error; the session goes on planning once.
    await expect(generic(sql`select 1 / ${0}::int`)).rejects.toThrow(/division by zero/);
    expect(await generic(named("third"))).toEqual([]);
    expect(await generic(plansOf)).toEqual([{ generic_plans: 3, custom_plans: 0 }]);
    await handle.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.displayPrefix, "after"));
    const [after] = rowsOf<{ generic_plans: number; custom_plans: number }>(
      await handle.db.execute(sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like ${'%where "api_keys"."display_prefix" = $1'}`),
    );
    expect(after).toEqual({ generic_plans: 0, custom_plans: 1 });
  });

  it("every API request's key lookup, the prepared key lookups and the order transaction run there too, planned once", async () => {
    setDatabaseHandle(handle);
    try {
      const organization = await createOrganization({ name: "Plans", currency: "SEK" });
      const { key } = await createApiKey({ organizationId: organization.id, name: "plans", scopes: ["*"], rateLimitPerMinute: 100 });
      for (let i = 0; i < 3; i++) expect(await authenticateApiKeyAndHit(key)).not.toBeNull();
      for (let i = 0; i < 2; i++) await expect(getOrder(organization.id, toPublicId("order", randomUUID()))).rejects.toThrow(/not found/);
      const catalog = await insertCatalog(organization.id);
      for (let i = 0; i < 2; i++) await createOrder(organization.id, oneTicketOrderBody(catalog));

      type Plans = { statement: string; generic_plans: number; custom_plans: number };
      const plans = sql`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements`;
      const generics = (await generic(plans)) as Plans[];
      expect(generics.find((row) => row.statement.includes("rate_limit_hit"))).toMatchObject({ generic_plans: 3, custom_plans: 0 });
      expect(generics.find((row) => row.statement.includes('from "orders"'))).toMatchObject({ generic_plans: 2, custom_plans: 0 });
      const orderLines = (row: Plans) => row.statement.includes('from "events" left join "ticket_types"');
      expect(generics.find(orderLines)).toMatchObject({ generic_plans: 2, custom_plans: 0 });
      const mains = rowsOf<Plans>(await handle.db.execute(plans));
      expect(mains.some((row) => row.statement.includes("rate_limit_hit") || row.statement.includes('from "orders"') || orderLines(row))).toBe(false);
    } finally {
      setDatabaseHandle(undefined);
    }
  });

  it("a query is prepared once per shape; lists are planned once or for each execution's values as they declare", async () => {
    const built: string[] = [];
    const byName = preparedPerShape(
      (shape: { named: boolean }) => String(shape.named),
      (database, shape) => {
        built.push(String(shape.named));
        const named = shape.named ? eq(apiKeys.name, sql.placeholder("name")) : undefined;
        return database.select({ id: apiKeys.id }).from(apiKeys).where(named).prepare("keys_by_name");
      },
      "per-execution",
    );
    setDatabaseHandle(handle);
    try {
      expect(byName({ named: true })).toBe(byName({ named: true }));
      expect(byName({ named: false })).not.toBe(byName({ named: true }));
      expect(built).toEqual(["true", "false"]);
      expect(await byName({ named: true }).execute({ name: "none such" })).toEqual([]);

      const organization = await createOrganization({ name: "List plans", currency: "SEK" });
      const catalog = await insertCatalog(organization.id);
      await createOrder(organization.id, oneTicketOrderBody(catalog));
      const page = { page: 1, per_page: 25 };
      for (let i = 0; i < 2; i++) {
        expect((await listOrders(organization.id, page)).meta.total).toBe(1);
        expect((await listEvents(organization.id, page)).data).toHaveLength(1);
        expect((await listVenues(organization.id)).data).toHaveLength(1);
      }
      type Plans = { statement: string; generic_plans: number; custom_plans: number };
      const plans = sql`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements`;
      const statement = (rows: Plans[], text: string) => rows.find((row) => row.statement.includes(text));
      // An organization's orders: planned for each page's values. Its events and venues: planned once.
      const mains = rowsOf<Plans>(await handle.db.execute(plans));
      expect(statement(mains, 'order by "orders"."created_at" desc')).toMatchObject({ generic_plans: 0, custom_plans: 2 });
      const generics = (await generic(plans)) as Plans[];
      for (const list of ['from "events" inner join "venues"', 'from "venues" where']) {
        expect(statement(generics, list)).toMatchObject({ generic_plans: 2, custom_plans: 0 });
        expect(statement(mains, list)).toBeUndefined();
      }
    } finally {
      setDatabaseHandle(undefined);
    }
  });
});
