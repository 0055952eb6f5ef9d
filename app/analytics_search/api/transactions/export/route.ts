import { exportTransactions } from "@/lib/analytics/export";
import { exportQuerySchema } from "@/lib/analytics/export-schemas";
import { endpoint, methods, streamed } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "orders:read" }, async ({ principal, query }) => {
    const { body, headers } = exportTransactions(principal.organizationId, query(exportQuerySchema));
    return streamed(body, headers);
  }),
});
