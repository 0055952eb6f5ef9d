import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const jsonFile = path.resolve(import.meta.dirname, "..", "results.json");
const markdownFile = path.resolve(import.meta.dirname, "..", "results.md");

export function readResults(): Record<string, unknown> {
  return existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, "utf8")) as Record<string, unknown>) : {};
}

/** Stores `value` under `key` in bench/results.json, keeping every other benchmark's key. */
export function saveResults(key: string, value: unknown): void {
  writeFileSync(jsonFile, JSON.stringify({ ...readResults(), [key]: value }, null, 2) + "\n");
}

/**
 * Replaces this benchmark's section of bench/results.md (between `<!-- bench:key -->` markers), or appends
 * it (puts it at the top with `first`), so each benchmark rewrites only its own part of the file.
 */
export function saveMarkdownSection(key: string, lines: string[], options: { first?: boolean } = {}): void {
  const start = `<!-- bench:${key} -->`;
  const end = `<!-- /bench:${key} -->`;
  const section = [start, ...lines, end].join("\n");
  const existing = existsSync(markdownFile) ? readFileSync(markdownFile, "utf8") : "";
  const from = existing.indexOf(start);
  const to = existing.indexOf(end);
  const next =
    from >= 0 && to > from
      ? existing.slice(0, from) + section + existing.slice(to + end.length)
      : options.first
        ? `${section}\n${existing.trim() ? "\n" : ""}${existing}`
        : `${existing.trimEnd()}${existing.trim() ? "\n\n" : ""}${section}\n`;
  writeFileSync(markdownFile, next);
}
