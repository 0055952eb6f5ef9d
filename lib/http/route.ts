import { z } from "zod";
import { authenticateApiKeyAndHit } from "@/lib/auth/api-keys";
import { hasScope } from "@/lib/auth/scopes";
import { originOf, withAuditContext, type AuditActor } from "@/lib/audit/context";
import { resolveDashboardPrincipal } from "@/lib/auth/dashboard-principal";
import { can, forbiddenMessage } from "@/lib/auth/permissions";
import { isCrossOriginRequest } from "@/lib/auth/same-origin";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { noteApiKey, noteRequestBody, withRequestLog } from "@/lib/request-log/capture";
import { apiErrorFromDatabase } from "./db-errors";
import { ApiError, apiErrorResponse, jsonResponse, newTraceId, type ApiResponse, type ErrorDetail } from "./errors";
import { withIdempotency } from "./idempotency";
import type { Access, Operation, PathParamNames } from "./operation";
import { admitted, enforceRateLimit } from "./rate-limit";
import { fieldPath, readBody } from "./request-body";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface Principal {
  organizationId: string;
  apiKeyId?: string;
  userId?: string;
}

/** What the operation declares a schema for arrives parsed; the rest is undefined. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * What the API reads of a request. A web Request has it; so has Node's request seen through
 * lib/http/pages-api.ts, without building one.
 */
export interface ApiRequest {
  method: string;
  /** Absolute, as the client asked for it. */
  url: string;
  headers: Pick<Headers, "get">;
  body: AsyncIterable<Uint8Array> | null;
}

export interface RequestContext<Op extends Operation> {
  request: ApiRequest;
  params: Record<PathParamNames<Op["path"]>, string>;
  traceId: string;
  principal: Principal;
  /** The query string validated by the operation's `query`; unknown parameters are ignored. */
  query: Parsed<Op["query"]>;
  /** The JSON body validated by the operation's `body`. */
  body: Parsed<Op["body"]>;
}

/** What a handler returns: a JSON body with a status, no content, or a streamed body with its own headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
/** A download: the stream is sent as it is produced, after the checks (one request for the rate limit). */
export const streamed = (body: ReadableStream<Uint8Array>, headers: Record<string, string>): Reply => ({ status: 200, body, headers });

type RouteContext = { params: Record<string, string> };
export type RouteHandler = (request: ApiRequest, context: RouteContext) => Promise<ApiResponse>;
/** A route handler serving one operation, which it carries (route tables and tests read it). */
export type Endpoint = RouteHandler & { operation: Operation };

export function zodDetails(error: z.ZodError): ErrorDetail[] {
  // An unknown field is reported at its own path, so a client can tell which field to drop.
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: fieldPath([...issue.path, key]), message: "Unknown field" }))
      : [{ path: fieldPath(issue.path), message: issue.message }],
  );
}

function parseWith<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError("validation_failed", `Invalid ${what}`, zodDetails(result.error));
  return result.data;
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  // First value wins for repeated parameters: a predictable rule rather than an array surprise.
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

function bearer(request: ApiRequest): string | null {
  const header = request.headers.get("authorization")?.trim();
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return (match ? match[1]! : header).trim();
}

interface Authorized {
  principal: Principal;
  headers: Record<string, string>;
}

async function authorize(request: ApiRequest, access: Access): Promise<Authorized> {
  const token = bearer(request);
  if ("dashboard" in access) {
    // The session cookie goes along with any site's form or fetch; only this site's pages may write with it.
    if (!token && !SAFE_METHODS.has(request.method) && isCrossOriginRequest(request.headers)) {
      throw new ApiError("forbidden", "Cross-origin requests with the dashboard session are refused");
    }
    const principal = await resolveDashboardPrincipal(token, request.headers);
    if (!principal) {
      throw new ApiError(
        "unauthorized",
        "A dashboard user token is required (Authorization: Bearer <jwt>); API keys are not accepted here",
      );
    }
    const headers = await enforceRateLimit(principal.userId, env.DASHBOARD_RATE_LIMIT_PER_MINUTE);
    if (!can(principal.role, access.dashboard)) {
      throw new ApiError("forbidden", forbiddenMessage(principal.role, access.dashboard), undefined, headers);
    }
    return { principal: { organizationId: principal.organizationId, userId: principal.userId }, headers };
  }
  const hit = token ? await authenticateApiKeyAndHit(token) : null;
  if (!hit) throw new ApiError("unauthorized", "Invalid or missing API key");
  const { key } = hit;
  noteApiKey(request, key);
  const headers = admitted(hit.rateLimit);
  if (!hasScope(key.scopes, access.scope)) {
    throw new ApiError("forbidden", `Insufficient permissions. Required scope: ${access.scope}`, undefined, headers);
  }
  return { principal: { organizationId: key.organizationId, apiKeyId: key.id }, headers };
}

export function errorResponse(error: unknown, traceId: string, extraHeaders: Record<string, string> = {}): ApiResponse {
  const apiError =
    error instanceof ApiError ? error : (apiErrorFromDatabase(error) ?? new ApiError("internal", "Internal server error"));
  if (apiError.status >= 500) log.error("request failed", { trace_id: traceId, error: String(error), stack: (error as Error)?.stack });
  return apiErrorResponse(apiError, traceId, extraHeaders);
}

/** `/v1/venues/{id}` filled from the response body's fields, then from the request's path parameters. */
function locationOf(template: string, body: unknown, params: Record<string, string>): string {
  const fields = (body ?? {}) as Record<string, unknown>;
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(fields[name] ?? params[name])));
}

/**
 * Serves one operation: authentication, scope, rate limit, trace id, body and query parsing with the
 * operation's schemas, idempotency, the Location of what it created, and error mapping.
 */
export function endpoint<const Op extends Operation>(
  operation: Op,
  handler: (ctx: RequestContext<Op>) => Promise<Reply>,
): Endpoint {
  const serve: RouteHandler = async (request, context) => {
    const traceId = newTraceId();
    let headers: Record<string, string> = {};
    try {
      const authorized = await authorize(request, operation.access);
      headers = authorized.headers;
      const { params } = context;
      const url = new URL(request.url);
      const rawBody = request.method === "GET" || request.method === "DELETE" ? undefined : await readBody(request);
      const { principal } = authorized;
      const actor: AuditActor = principal.apiKeyId ? { type: "api_key", id: principal.apiKeyId } : { type: "user", id: principal.userId! };
      const audit = { actor, ...originOf(request.headers) };
      if (rawBody) noteRequestBody(request, rawBody.value);
      // Parsed inside the idempotent run, so a request refused for its input frees its Idempotency-Key.
      const run = () =>
        withAuditContext(audit, () => handler({
          request,
          params,
          traceId,
          principal: authorized.principal,
          query: operation.query ? parseWith(operation.query, queryObject(url), "query parameters") : undefined,
          // Only a missing body stands for {}: a JSON null is a body, and not an object.
          body: operation.body ? parseWith(operation.body, rawBody ? rawBody.value : {}, "request body") : undefined,
        } as RequestContext<Op>));
      const idempotencyKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
      const reply = idempotencyKey
        ? await withIdempotency(
            // The text as sent, not a re-serialization: JSON.stringify overflows the stack on deeply nested bodies.
            { organizationId: authorized.principal.organizationId, key: idempotencyKey, fingerprint: [request.method, url.pathname, rawBody?.text ?? ""] },
            run,
          )
        : { ...(await run()), replayed: false };
      const responseHeaders: Record<string, string> = { ...headers, "X-Trace-Id": traceId, "Cache-Control": "no-store" };
      if (reply.replayed) responseHeaders["Idempotent-Replayed"] = "true";
      if (reply.status === 201 && operation.location) responseHeaders.Location = locationOf(operation.location, reply.body, params);
      if (reply.status === 204) return { status: 204, headers: responseHeaders, body: null };
      if (reply.body instanceof ReadableStream) return { status: reply.status, headers: { ...responseHeaders, ...reply.headers }, body: reply.body };
      return jsonResponse(reply.status, reply.body, responseHeaders);
    } catch (error) {
      return errorResponse(error, traceId, headers);
    }
  };
  return Object.assign(withRequestLog(serve), { operation });
}
