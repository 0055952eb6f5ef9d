import "server-only";
import { z } from "zod";
import { listApiKeys } from "@/lib/auth/api-keys";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { listRequestLog } from "@/lib/request-log/entries";
import { STATUS_CLASSES, TRACE_ID, type ListRequestLogQuery, type RequestLogEntryJson } from "@/lib/request-log/schemas";
import { utcMinute, utcMinuteText } from "./deliveries";
import { apiPageOf, firstParam, listQueryOf, type FilterParams, type ListQuery, type ListSpec, type SearchParams } from "./paging";

export const REQUEST_LOG_LIST: ListSpec<"created"> = { path: "/logs", sorts: { created: "desc" }, fallback: "created" };

export type RequestLogQuery = ListQuery<"created"> & {
  status?: (typeof STATUS_CLASSES)[number];
  keyId?: string;
  path?: string;
  createdFrom?: Date;
  createdTo?: Date;
};

const filtersSchema = z.object({
  status: z.enum(STATUS_CLASSES).optional().catch(undefined),
  key_id: z.string().refine((text) => fromPublicId("apiKey", text) !== null).optional().catch(undefined),
  path: z.string().trim().startsWith("/").max(500).optional().catch(undefined),
  created_from: utcMinute.optional().catch(undefined),
  created_to: utcMinute.optional().catch(undefined),
});

/** The Logs page's filters with its page; a bad value falls back to "no filter". */
export function requestLogQueryOf(params: SearchParams): RequestLogQuery {
  const filters = filtersSchema.parse({
    status: firstParam(params, "status") || undefined,
    key_id: firstParam(params, "key_id") || undefined,
    path: firstParam(params, "path") || undefined,
    created_from: firstParam(params, "created_from") || undefined,
    created_to: firstParam(params, "created_to") || undefined,
  });
  return {
    ...listQueryOf(params, REQUEST_LOG_LIST),
    status: filters.status,
    keyId: filters.key_id,
    path: filters.path,
    createdFrom: filters.created_from,
    createdTo: filters.created_to,
  };
}

export function requestLogFilterParams(query: RequestLogQuery): FilterParams {
  return {
    status: query.status,
    key_id: query.keyId,
    path: query.path,
    created_from: utcMinuteText(query.createdFrom),
    created_to: utcMinuteText(query.createdTo),
  };
}

/** The trace id a search box holds, forgiving the spaces and quotes a paste brings along; null when it is none. */
export function traceIdOf(text: string | undefined): string | null {
  const candidate = text?.trim().replace(/^["'`]+|["'`]+$/g, "").toLowerCase() ?? "";
  return TRACE_ID.test(candidate) ? candidate : null;
}

/** One page of GET /v1/request-log for the dashboard, with the organization's keys for the key filter. */
export async function listRequestLogPage(organizationId: string, query: RequestLogQuery) {
  const apiQuery: ListRequestLogQuery = {
    ...apiPageOf(query),
    status: query.status,
    key_id: query.keyId,
    path: query.path,
    created_from: query.createdFrom,
    created_to: query.createdTo,
  };
  const [page, keys] = await Promise.all([listRequestLog(organizationId, apiQuery), listApiKeys(organizationId)]);
  const keyNames = new Map(keys.map((key) => [toPublicId("apiKey", key.id), `${key.name} (${key.displayPrefix}…)`]));
  return {
    rows: page.data.map((entry) => ({ ...entry, keyName: keyNames.get(entry.key_id) ?? entry.key_id })),
    total: page.meta.total,
    keys: [...keyNames].map(([value, label]) => ({ value, label })),
  };
}
export type RequestLogRow = Awaited<ReturnType<typeof listRequestLogPage>>["rows"][number];

/** Where the dashboard shows what a request created or changed: its order, event, ticket type, venue or delivery. */
export function dashboardLinkOf(entry: Pick<RequestLogEntryJson, "created_resource" | "order_id">): { href: string; label: string } | null {
  if (entry.order_id) {
    const uuid = fromPublicId("order", entry.order_id);
    return uuid ? { href: `/orders/${uuid}`, label: `Order ${entry.order_id}` } : null;
  }
  const path = entry.created_resource ?? "";
  const ticketType = /^\/v1\/events\/(evt_[0-9a-f]{32})\/tickets\/(tkt_[0-9a-f]{32})$/.exec(path);
  if (ticketType) return { href: `/events/${ticketType[1]}/ticket-types/${ticketType[2]}`, label: `Ticket type ${ticketType[2]}` };
  const resource = /^\/(?:v1\/(events|venues)|webhooks\/(deliveries))\/((?:evt|ven|dlv)_[0-9a-f]{32})$/.exec(path);
  if (!resource) return null;
  const section = resource[1] ?? resource[2]!;
  const label = { events: "Event", venues: "Venue", deliveries: "Delivery" }[section]!;
  return { href: `/${section}/${resource[3]}`, label: `${label} ${resource[3]}` };
}
