/** A cell of an export row: text, a number (minor units, quantities), a flag, or nothing. */
export type Cell = string | number | boolean | null;

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection, OWASP).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: formula starts neutralised with a leading ', then quoted per RFC 4180 when it must be. */
export function csvField(value: Cell): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 has it. */
export const csvLine = (cells: readonly Cell[]) => `${cells.map(csvField).join(",")}\r\n`;

/** One JSON Lines record: the values as they are (JSON has no formulas), keyed by the column names. */
export function jsonLine(columns: readonly string[], cells: readonly Cell[]): string {
  return `${JSON.stringify(Object.fromEntries(columns.map((column, index) => [column, cells[index]])))}\n`;
}
