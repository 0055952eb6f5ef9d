import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The PostgreSQL functions and triggers: their current definitions live in db/sql/*.sql, and migrations
 * carry every version applied so far. db/generate-sql-migration.ts turns the difference into a migration.
 */

export const sqlFolder = path.join(process.cwd(), "db", "sql");
export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

export interface SqlStatement {
  /** The statement as written, comments included, without its closing semicolon. */
  text: string;
  /** What PostgreSQL sees: comments outside quotes removed, whitespace collapsed, CREATE OR REPLACE TRIGGER as CREATE TRIGGER. */
  normalized: string;
  /** "function <name>" or "trigger <name> on <table>" for statements that create or drop one, else undefined. */
  object?: string;
  drops: boolean;
}

export interface SqlDefinitionFile {
  file: string;
  statements: SqlStatement[];
}

const IDENTIFIER = String.raw`(?:public\.)?"?(\w+)"?`;
const CREATE_FUNCTION = new RegExp(String.raw`^create (?:or replace )?(?:function|procedure) ${IDENTIFIER}`, "i");
const CREATE_TRIGGER = new RegExp(String.raw`^create (?:or replace )?trigger ${IDENTIFIER} .*? on ${IDENTIFIER}`, "i");
const DROP_FUNCTION = new RegExp(String.raw`^drop (?:function|procedure) (?:if exists )?${IDENTIFIER}`, "i");
const DROP_TRIGGER = new RegExp(String.raw`^drop trigger (?:if exists )?${IDENTIFIER} on ${IDENTIFIER}`, "i");

function describe(code: string): Pick<SqlStatement, "normalized" | "object" | "drops"> {
  const normalized = code.replace(/\s+/g, " ").trim().replace(/^create or replace trigger /i, "CREATE TRIGGER ");
  let match = CREATE_FUNCTION.exec(normalized);
  if (match) return { normalized, object: `function ${match[1]}`, drops: false };
  match = CREATE_TRIGGER.exec(normalized);
  if (match) return { normalized, object: `trigger ${match[1]} on ${match[2]}`, drops: false };
  match = DROP_FUNCTION.exec(normalized);
  if (match) return { normalized, object: `function ${match[1]}`, drops: true };
  match = DROP_TRIGGER.exec(normalized);
  if (match) return { normalized, object: `trigger ${match[1]} on ${match[2]}`, drops: true };
  return { normalized, drops: false };
}

/**
 * Splits SQL text at the semicolons that end statements, minding quotes, dollar quotes and comments
 * (drizzle's "--> statement-breakpoint" markers are comments too). Statements that are only comments go.
 */
export function splitSqlStatements(sqlText: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let code = "";
  let i = 0;
  const finish = (end: number) => {
    const text = sqlText.slice(start, end).trim();
    if (code.trim()) statements.push({ text, ...describe(code) });
    start = end + 1;
    code = "";
  };
  while (i < sqlText.length) {
    const rest = sqlText.slice(i);
    if (rest.startsWith("--")) {
      const end = sqlText.indexOf("\n", i);
      i = end === -1 ? sqlText.length : end;
      continue;
    }
    if (rest.startsWith("/*")) {
      const end = sqlText.indexOf("*/", i + 2);
      i = end === -1 ? sqlText.length : end + 2;
      code += " ";
      continue;
    }
    const dollarTag = /^\$\w*\$/.exec(rest)?.[0];
    const quote = dollarTag ?? (rest[0] === "'" || rest[0] === '"' ? rest[0] : undefined);
    if (quote) {
      const end = sqlText.indexOf(quote, i + quote.length);
      const next = end === -1 ? sqlText.length : end + quote.length;
      code += sqlText.slice(i, next);
      i = next;
      continue;
    }
    if (rest[0] === ";") finish(i);
    else code += rest[0];
    i++;
  }
  finish(sqlText.length);
  return statements;
}

/** db/sql/*.sql in name order, each with its statements. */
export function readSqlDefinitionFiles(folder = sqlFolder): SqlDefinitionFile[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => ({ file: name, statements: splitSqlStatements(readFileSync(path.join(folder, name), "utf8")) }));
}

/** The SQL text of every migration, in the journal's order. */
export function readMigrations(folder = migrationsFolder): string[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => readFileSync(path.join(folder, `${entry.tag}.sql`), "utf8"));
}

/** Each function and trigger that the migrations leave in place, with the statement that last defined it. */
export function migratedDefinitions(migrations: string[]): Map<string, string> {
  const definitions = new Map<string, string>();
  for (const statement of migrations.flatMap(splitSqlStatements)) {
    if (!statement.object) continue;
    if (statement.drops) definitions.delete(statement.object);
    else definitions.set(statement.object, statement.normalized);
  }
  return definitions;
}

export interface PendingSqlChanges {
  /** Statements of db/sql whose object the migrations define differently or not at all; functions first. */
  statements: (SqlStatement & { file: string })[];
  /** Objects the migrations define that no db/sql file does: their removal needs a hand-written migration. */
  undefinedInFiles: string[];
}

export function pendingSqlChanges(files: SqlDefinitionFile[], migrations: string[]): PendingSqlChanges {
  const migrated = migratedDefinitions(migrations);
  const statements: PendingSqlChanges["statements"] = [];
  const inFiles = new Set<string>();
  for (const { file, statements: fileStatements } of files) {
    for (const statement of fileStatements) {
      if (!statement.object || statement.drops) {
        throw new Error(`db/sql/${file}: only CREATE FUNCTION and CREATE TRIGGER belong here, found: ${statement.text.slice(0, 80)}`);
      }
      if (inFiles.has(statement.object)) throw new Error(`db/sql/${file}: ${statement.object} is defined twice in db/sql`);
      inFiles.add(statement.object);
      if (migrated.get(statement.object) !== statement.normalized) statements.push({ ...statement, file });
    }
  }
  // A changed trigger may execute a function that is new in the same migration.
  statements.sort((a, b) => Number(a.object!.startsWith("trigger")) - Number(b.object!.startsWith("trigger")));
  return { statements, undefinedInFiles: [...migrated.keys()].filter((object) => !inFiles.has(object)) };
}
