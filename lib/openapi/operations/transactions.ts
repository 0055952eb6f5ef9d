import { defineResource } from "@/lib/http/operation";
import { transactionsQuerySchema, transactionsResponseSchema } from "@/lib/orders/order-schemas";
import { TRANSACTIONS_EXAMPLE } from "./examples";

export const TRANSACTIONS = defineResource(
  { name: "Transactions", description: "Search over every order of the organization, in the transactions model." },
  {
    searchTransactions: {
      method: "get",
      path: "/analytics_search/api/transactions",
      summary: "Search transactions",
      description:
        "Pages through the organization's orders with a total, stable ordering (ties broken by order uuid). " +
        "total_count is exact for the filters; pages remaining = ceil(total_count / size).",
      access: { scope: "orders:read" },
      query: transactionsQuerySchema,
      queryNotes: {
        size: "Orders per page",
        from: "Offset into the result set",
        sort: "date (created_at), price (total_price) or customer_name (case-insensitive)",
        date_from: "Inclusive lower bound on created_at; a bare date means the start of that UTC day",
        date_to: "Inclusive upper bound on created_at; a bare date covers that whole UTC day",
        q: "Case-insensitive match on customer email, name or phone, or an exact order number",
        event_id: "Only orders of this event (evt_…)",
        is_refunded: "Only refunded (true) or only not refunded (false) orders",
      },
      response: { status: 200, description: "The transactions envelope", schema: transactionsResponseSchema, name: "TransactionsResponse", example: TRANSACTIONS_EXAMPLE },
    },
  },
);
