import { z } from "zod";
import { fromPublicId, type IdKind } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";

/** A required display name: surrounding blanks are dropped, so "   " counts as empty. */
export const nameSchema = z.string().trim().min(1).max(200);

/** ISO 8601 with seconds and an explicit offset (`Z` or `+01:00`); anything else is ambiguous. */
export const timestampSchema = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 timestamp with a time zone, e.g. 2026-05-01T18:00:00Z" })
  .transform((text) => new Date(text));

/**
 * Arguments for `.refine` checking that one timestamp comes after another. It stays quiet while either
 * is missing or failed its own check (zod still runs object refinements then), so each field gets one issue.
 */
export function endsAfter<K extends string>(startKey: K, endKey: K) {
  const check = (value: Partial<Record<K, unknown>>) => {
    const start = value[startKey];
    const end = value[endKey];
    return !(start instanceof Date && end instanceof Date) || start < end;
  };
  const issue: { path: PropertyKey[]; message: string } = { path: [endKey], message: `Must be after ${startKey}` };
  return [check, issue] as const;
}

export const timestampOutSchema = z.iso.datetime();

/** The row UUID behind a path id; a malformed id names nothing, so it is a 404 like an unknown one. */
export function uuidOrNotFound(kind: IdKind, publicId: string, what: string): string {
  const uuid = fromPublicId(kind, publicId);
  if (!uuid) throw notFound(what);
  return uuid;
}

export const iso = (date: Date): string => date.toISOString();
