import { sql, type SQL } from "drizzle-orm";
import type { ExportColumn } from "./export-columns";

/**
 * The export's lines are written by the database, so the app holds one string per row rather than a parsed
 * row, its cells and their texts: the short-lived garbage that V8 promoted while the server
 * was busy and that grew the app by 220 MB over a 1,000,000-row items export (bench/history.md, "Export memory: what grows").
 */

/** The CSV header: the column names are snake_case words, which need no quoting. */
export const csvHeader = (columns: readonly ExportColumn[]) => `${columns.map(({ name }) => name).join(",")}\r\n`;

/** One CSV record, CRLF-terminated as RFC 4180 has it; text cells go through export_csv_field (db/sql). */
export function csvLineSql(columns: readonly ExportColumn[]): SQL {
  const fields = columns.map(({ value, text }) => (text ? sql`export_csv_field((${value})::text)` : sql`(${value})::text`));
  // concat writes a null (a missing number) as nothing, as an empty CSV field has it.
  return sql`concat(${sql.join(fields, sql`, ',', `)}, ${"\r\n"}::text)`;
}

/** One JSON Lines record: the values as they are (JSON has no formulas), keyed by the column names in their order. */
export function jsonLineSql(columns: readonly ExportColumn[]): SQL {
  const members = columns.map(
    ({ name, value }, index) => sql`${`${index ? "," : "{"}${JSON.stringify(name)}:`}::text, coalesce(to_json(${value})::text, 'null')`,
  );
  return sql`concat(${sql.join(members, sql`, `)}, ${"}\n"}::text)`;
}
