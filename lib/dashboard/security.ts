import { z } from "zod";
import { AUDIT_ACTION_NAMES } from "@/lib/audit/actions";
import { listAuditLog, type AuditFilters } from "@/lib/audit/audit-log";
import { apiPageOf, firstParam, listQueryOf, type FilterParams, type ListQuery, type ListSpec, type SearchParams } from "./paging";

/** The Security page lists newest first only: an append-only log is read backwards from now. */
export const AUDIT_LIST: ListSpec<"created"> = { path: "/security", sorts: { created: "desc" }, fallback: "created", perPage: 50 };

const DAY_MS = 86_400_000;
const utcDay = z.iso.date().transform((text) => new Date(`${text}T00:00:00Z`));

const filtersSchema = z.object({
  actor: z.string().trim().min(1).max(320).optional().catch(undefined),
  action: z.enum(AUDIT_ACTION_NAMES).optional().catch(undefined),
  from: utcDay.optional().catch(undefined),
  to: utcDay.optional().catch(undefined),
});

export type SecurityQuery = ListQuery<"created"> & z.output<typeof filtersSchema>;

/** The page's URL as a query: `from` and `to` are whole UTC days, both included; a bad value means no filter. */
export function securityQueryOf(params: SearchParams): SecurityQuery {
  const filters = filtersSchema.parse({
    actor: firstParam(params, "actor") || undefined,
    action: firstParam(params, "action") || undefined,
    from: firstParam(params, "from") || undefined,
    to: firstParam(params, "to") || undefined,
  });
  return { ...listQueryOf(params, AUDIT_LIST), ...filters };
}

const dayText = (date: Date | undefined) => date?.toISOString().slice(0, 10);

export function securityFilterParams(query: SecurityQuery): FilterParams {
  return { actor: query.actor, action: query.action, from: dayText(query.from), to: dayText(query.to) };
}

export function isFiltered(query: SecurityQuery): boolean {
  return Object.values(securityFilterParams(query)).some((value) => value !== undefined);
}

/** The page of entries GET /v1/audit-log would answer for the same filters (`to` made exclusive: the next day). */
export function listSecurityPage(organizationId: string, query: SecurityQuery) {
  const filters: AuditFilters = {
    actor: query.actor,
    action: query.action,
    from: query.from,
    to: query.to && new Date(query.to.getTime() + DAY_MS),
  };
  return listAuditLog(organizationId, filters, apiPageOf(query));
}
