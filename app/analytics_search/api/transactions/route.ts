import { endpoint, methods, ok } from "@/lib/http/route";
import { transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { searchTransactions } from "@/lib/orders/transactions-search";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "orders:read" }, async ({ principal, query, traceId }) =>
    ok({ data: await searchTransactions(principal.organizationId, query(transactionsQuerySchema)), trace_id: traceId }),
  ),
});
