import { exportTransactions } from "@/lib/analytics/export";
import { endpoint, streamed } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { TRANSACTIONS } from "@/lib/openapi/operations/transactions";

export const config = { api: { bodyParser: false, responseLimit: false } };

export default route(
  endpoint(TRANSACTIONS.exportTransactions, async ({ principal, query }) => {
    const { body, headers } = exportTransactions(principal.organizationId, query);
    return streamed(body, headers);
  }),
);
