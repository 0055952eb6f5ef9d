import { created, endpoint, methods, ok } from "@/lib/http/route";
import { createOrder } from "@/lib/orders/create-order";
import { createOrderBodySchema, listOrdersQuerySchema } from "@/lib/orders/order-schemas";
import { listOrders } from "@/lib/orders/orders";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint({ scope: "orders:read" }, async ({ principal, query }) =>
    ok(await listOrders(principal.organizationId, query(listOrdersQuerySchema))),
  ),
  POST: endpoint({ scope: "orders:write" }, async ({ principal, body }) =>
    created(await createOrder(principal.organizationId, body(createOrderBodySchema))),
  ),
});
