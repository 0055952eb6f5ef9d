import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { REQUEST_LOG } from "@/lib/openapi/operations/request-log";
import { getRequestLogEntry } from "@/lib/request-log/entries";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(REQUEST_LOG.getRequestLogEntry, async ({ principal, params }) =>
    ok(await getRequestLogEntry(principal.organizationId, params.trace_id)),
  ),
);
