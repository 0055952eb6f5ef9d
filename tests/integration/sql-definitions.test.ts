import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, type Queryable } from "@/db/client";
import { readSqlDefinitionFiles } from "@/db/sql-definitions";
import { useTestDatabase } from "../support/database";

const files = readSqlDefinitionFiles();

/**
 * Every function and trigger of the public schema, as PostgreSQL prints it, whitespace collapsed; functions
 * that belong to an extension (pg_trgm's) are the extension's, not db/sql's.
 */
async function liveDefinitions(db: Queryable): Promise<Map<string, string>> {
  const rows = rowsOf<{ object: string; definition: string }>(
    await db.execute(sql`
      select 'function ' || p.proname as object, pg_get_functiondef(p.oid) as definition
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prokind in ('f', 'p')
         and not exists (
           select 1 from pg_depend d
            where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      union all
      select 'trigger ' || t.tgname || ' on ' || c.relname, pg_get_triggerdef(t.oid)
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and not t.tgisinternal`),
  );
  return new Map(rows.map((row) => [row.object, row.definition.replace(/\s+/g, " ").trim()]));
}

class Rollback extends Error {}

describe("db/sql holds the live functions and triggers", () => {
  const database = useTestDatabase();

  it("has a file for each function and trigger the migrations leave, and no other", async () => {
    const live = await liveDefinitions(database.handle().db);
    const inFiles = files.flatMap((file) => file.statements.map((statement) => statement.object));
    expect(inFiles.toSorted()).toEqual([...live.keys()].sort());
  });

  it("defines each one exactly as the migrated database does", async () => {
    // PostgreSQL prints a definition in its own canonical form; running the files over the migrated
    // database (in a transaction rolled back afterwards) and comparing the prints before and after
    // compares the files with the live definitions, whatever the files' layout.
    let before: Map<string, string> | undefined;
    let after: Map<string, string> | undefined;
    await expect(
      database.handle().db.transaction(async (tx) => {
        before = await liveDefinitions(tx);
        for (const statement of files.flatMap((file) => file.statements)) await tx.execute(sql.raw(statement.text));
        after = await liveDefinitions(tx);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(Object.fromEntries(after!)).toEqual(Object.fromEntries(before!));
  });
});
