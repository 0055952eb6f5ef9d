import { created, endpoint, ok } from "@/lib/http/route";
import { route } from "@/lib/http/route-exports";
import { ORDERS } from "@/lib/openapi/operations/orders";
import { createOrder } from "@/lib/orders/create-order";
import { listOrders } from "@/lib/orders/orders";

export const config = { api: { bodyParser: false } };

export default route(
  endpoint(ORDERS.listOrders, async ({ principal, query }) => ok(await listOrders(principal.organizationId, query))),
  endpoint(ORDERS.createOrder, async ({ principal, body }) => created(await createOrder(principal.organizationId, body))),
);
