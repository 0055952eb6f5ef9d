import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { ORDERS } from "@/lib/openapi/operations/orders";
import { getOrder } from "@/lib/orders/orders";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(ORDERS.getOrder, async ({ principal, params }) => ok(await getOrder(principal.organizationId, params.id))),
);
