import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { REQUEST_LOG } from "@/lib/openapi/operations/request-log";
import { listRequestLog } from "@/lib/request-log/entries";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(REQUEST_LOG.listRequestLog, async ({ principal, query }) => ok(await listRequestLog(principal.organizationId, query))),
);
