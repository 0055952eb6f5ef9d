import "server-only";
import { and, count, desc, eq, gte, like, lt, sql, type SQL } from "drizzle-orm";
import { db, rowsOf, type Queryable } from "@/db/client";
import { requestLog } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { pageMeta, pageOf } from "@/lib/http/pagination";
import { fromPublicId, toPublicId } from "@/lib/ids";
import type { ListRequestLogQuery, RequestLogEntryJson, StatusClass } from "./schemas";
import { TRACE_ID } from "./schemas";

type Row = typeof requestLog.$inferSelect;

function serialize(row: Row): RequestLogEntryJson {
  return {
    trace_id: row.traceId,
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    duration_ms: Math.round(row.durationMs * 100) / 100,
    key_id: toPublicId("apiKey", row.apiKeyId),
    ...(row.clientIp ? { client_ip: row.clientIp } : {}),
    ...(row.userAgent ? { user_agent: row.userAgent } : {}),
    ...(row.requestBody !== null ? { request_body: row.requestBody } : {}),
    request_body_truncated: row.requestBodyTruncated,
    ...(row.createdResource ? { created_resource: row.createdResource } : {}),
    ...(row.orderId ? { order_id: row.orderId } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const statusClass = (value: StatusClass) => Number(value[0]);

function whereOf(organizationId: string, query: ListRequestLogQuery): SQL | undefined {
  const filters: (SQL | undefined)[] = [eq(requestLog.organizationId, organizationId)];
  // The same expression as the status class index.
  if (query.status) filters.push(sql`(${requestLog.status} / 100) = ${statusClass(query.status)}`);
  if (query.key_id) filters.push(eq(requestLog.apiKeyId, fromPublicId("apiKey", query.key_id)!));
  if (query.path) filters.push(like(requestLog.path, `${escapeLike(query.path)}%`));
  if (query.method) filters.push(eq(requestLog.method, query.method));
  if (query.created_from) filters.push(gte(requestLog.createdAt, query.created_from));
  if (query.created_to) filters.push(lt(requestLog.createdAt, query.created_to));
  return and(...filters);
}

/** A page of the organization's logged requests, newest first, with the filters of GET /v1/request-log. */
export async function listRequestLog(organizationId: string, query: ListRequestLogQuery, q: Queryable = db) {
  const where = whereOf(organizationId, query);
  const { limit, offset } = pageOf(query);
  const [rows, [total]] = await Promise.all([
    q.select().from(requestLog).where(where).orderBy(desc(requestLog.createdAt), desc(requestLog.id)).limit(limit).offset(offset),
    q.select({ total: count() }).from(requestLog).where(where),
  ]);
  return { data: rows.map(serialize), meta: pageMeta(query, total?.total ?? 0) };
}

/** One logged request by its trace id; 404 for a malformed, unknown or other organization's id. */
export async function getRequestLogEntry(organizationId: string, traceId: string, q: Queryable = db): Promise<RequestLogEntryJson> {
  if (!TRACE_ID.test(traceId)) throw notFound("Request");
  const [row] = await q
    .select()
    .from(requestLog)
    .where(and(eq(requestLog.organizationId, organizationId), eq(requestLog.traceId, traceId)))
    .limit(1);
  if (!row) throw notFound("Request");
  return serialize(row);
}

export const PRUNE_BATCH = 5_000;

/** Deletes one batch of entries older than `retentionDays`; returns how many went. */
export async function deleteExpiredRequestLog(retentionDays: number, q: Queryable = db): Promise<number> {
  const result = await q.execute(sql`
    delete from ${requestLog} where ${requestLog.id} in (
      select ${requestLog.id} from ${requestLog}
      where ${requestLog.createdAt} < now() - make_interval(days => ${retentionDays})
      limit ${PRUNE_BATCH}
    ) returning 1 as gone`);
  return rowsOf(result).length;
}
