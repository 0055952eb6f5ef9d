import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { ORDERS } from "@/lib/openapi/operations/orders";
import { refundOrderByPublicId } from "@/lib/orders/refunds";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(ORDERS.refundOrder, async ({ principal, params, body }) =>
    ok(await refundOrderByPublicId(principal.organizationId, params.id, body.reason)),
  ),
);
