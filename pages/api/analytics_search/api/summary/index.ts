import { salesSummary } from "@/lib/analytics/summary";
import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { TRANSACTIONS } from "@/lib/openapi/operations/transactions";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(TRANSACTIONS.summarizeTransactions, async ({ principal, query, traceId }) =>
    ok({ data: await salesSummary(principal.organizationId, query), trace_id: traceId }),
  ),
);
