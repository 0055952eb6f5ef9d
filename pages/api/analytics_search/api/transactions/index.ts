import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { TRANSACTIONS } from "@/lib/openapi/operations/transactions";
import { searchTransactions } from "@/lib/orders/transactions-search";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(TRANSACTIONS.searchTransactions, async ({ principal, query, traceId }) =>
    ok({ data: await searchTransactions(principal.organizationId, query), trace_id: traceId }),
  ),
);
