import { exportTransactions } from "@/lib/analytics/export";
import { ordersExportQuery } from "@/lib/dashboard/orders";
import { currentSession } from "@/lib/dashboard/session";

/** "Export CSV" on the orders page: the API's export of the page's filters and sort, for the session's organization. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.redirect(new URL("/login", request.url), 303);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const { body, headers } = exportTransactions(session.organizationId, ordersExportQuery(params));
  return new Response(body, { headers });
}
