import { salesSummary } from "@/lib/analytics/summary";
import { summaryQuerySchema } from "@/lib/analytics/summary-schemas";
import { endpoint, methods, ok } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "orders:read" }, async ({ principal, query, traceId }) =>
    ok({ data: await salesSummary(principal.organizationId, query(summaryQuerySchema)), trace_id: traceId }),
  ),
});
