import { endpoint, methods, ok } from "@/lib/http/route";
import { refundOrderBodySchema } from "@/lib/orders/order-schemas";
import { refundOrderByPublicId } from "@/lib/orders/refunds";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint<{ id: string }>({ scope: "orders:write" }, async ({ principal, params, body }) => {
    const { reason } = body(refundOrderBodySchema);
    return ok(await refundOrderByPublicId(principal.organizationId, params.id, reason));
  }),
});
