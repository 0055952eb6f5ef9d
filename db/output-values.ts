import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ID_PREFIXES, type IdKind } from "@/lib/ids";

/**
 * Values the database writes in the form the API outputs them, so the server process reads them as the text it
 * sends instead of building Date objects or strings per row.
 */

/**
 * A timestamptz as JavaScript's toISOString writes it (UTC, milliseconds; to_char's MS truncates, as a Date does).
 * place_order (db/sql/place-order.sql) writes the OrderCompleted payload's created_at with the same format in PL/pgSQL.
 */
export const isoText = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** toPublicId (lib/ids.ts) in SQL. */
export const publicIdText = (kind: IdKind, uuid: AnyPgColumn | SQL) => sql<string>`${`${ID_PREFIXES[kind]}_`}::text || replace(${uuid}::text, '-', '')`;
