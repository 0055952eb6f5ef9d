import { endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { ORDERS } from "@/lib/openapi/operations/orders";
import { refundOrderByPublicId } from "@/lib/orders/refunds";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route(
  endpoint(ORDERS.refundOrder, async ({ principal, params, body }) =>
    ok(await refundOrderByPublicId(principal.organizationId, params.id, body.reason)),
  ),
);
