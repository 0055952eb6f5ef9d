import { describe, expect, it } from "vitest";
import { pendingSqlChanges, readMigrations, readSqlDefinitionFiles, splitSqlStatements } from "@/db/sql-definitions";

const FUNCTION = "CREATE OR REPLACE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$";
const TRIGGER = "CREATE OR REPLACE TRIGGER t AFTER INSERT ON orders FOR EACH STATEMENT EXECUTE FUNCTION f()";

describe("db/sql and the migrations", () => {
  it("agree: every change to db/sql has its migration (npm run db:sql)", () => {
    expect(pendingSqlChanges(readSqlDefinitionFiles(), readMigrations())).toEqual({ statements: [], undefinedInFiles: [] });
  });

  it("splits at the semicolons that end statements, not those in quotes, bodies or comments", () => {
    const statements = splitSqlStatements(`-- a; comment\n${FUNCTION};\n--> statement-breakpoint\nSELECT ';';\n-- trailing`);
    expect(statements.map((statement) => statement.object)).toEqual(["function f", undefined]);
    expect(statements[0]?.text).toBe(`-- a; comment\n${FUNCTION}`);
  });

  it("finds the changed definitions, functions before triggers, and the ones no file has", () => {
    const migrations = [`${FUNCTION};\nCREATE TRIGGER t AFTER INSERT ON orders\n  FOR EACH STATEMENT EXECUTE FUNCTION f();`];
    const same = pendingSqlChanges([{ file: "f.sql", statements: splitSqlStatements(`${FUNCTION};\n${TRIGGER};`) }], migrations);
    expect(same).toEqual({ statements: [], undefinedInFiles: [] });

    const changedTrigger = TRIGGER.replace("INSERT", "DELETE");
    const changedFunction = FUNCTION.replace("RETURN NULL", "RETURN NEW");
    const changed = pendingSqlChanges(
      [
        { file: "a.sql", statements: splitSqlStatements(`${changedTrigger};`) },
        { file: "b.sql", statements: splitSqlStatements(`${changedFunction};`) },
      ],
      [...migrations, "CREATE FUNCTION gone() RETURNS int LANGUAGE sql AS $$ select 1 $$;"],
    );
    expect(changed.statements.map((statement) => [statement.file, statement.text])).toEqual([
      ["b.sql", changedFunction],
      ["a.sql", changedTrigger],
    ]);
    expect(changed.undefinedInFiles).toEqual(["function gone"]);
  });
});
