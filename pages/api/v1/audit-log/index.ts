import { listAuditLog } from "@/lib/audit/audit-log";
import { pageMeta } from "@/lib/http/pagination";
import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { AUDIT_LOG } from "@/lib/openapi/operations/audit-log";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(AUDIT_LOG.listAuditLog, async ({ principal, query }) => {
    const { page, per_page, actor, action, created_from, created_to } = query;
    const { data, total } = await listAuditLog(principal.organizationId, { actor, action, from: created_from, to: created_to }, { page, per_page });
    return ok({ data, meta: pageMeta({ page, per_page }, total) });
  }),
);
