import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { REQUEST_LOG } from "@/lib/openapi/operations/request-log";
import { getRequestLogEntry } from "@/lib/request-log/entries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route(
  endpoint(REQUEST_LOG.getRequestLogEntry, async ({ principal, params }) =>
    ok(await getRequestLogEntry(principal.organizationId, params.trace_id)),
  ),
);
