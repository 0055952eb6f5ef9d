import { exportQuerySchema } from "@/lib/analytics/export-schemas";
import { summaryQuerySchema, summaryResponseSchema } from "@/lib/analytics/summary-schemas";
import { defineResource } from "@/lib/http/operation";
import { transactionsQuerySchema, transactionsResponseSchema } from "@/lib/orders/order-schemas";
import { EXPORT_CSV_EXAMPLE, EXPORT_JSONL_EXAMPLE, SUMMARY_EXAMPLE, TRANSACTIONS_EXAMPLE } from "./examples";

/** What the transactions filters mean, for the search, its summary and its export. */
const TRANSACTION_FILTER_NOTES = {
  date_from: "Inclusive lower bound on created_at; a bare date means the start of that UTC day",
  date_to: "Inclusive upper bound on created_at; a bare date covers that whole UTC day",
  event_id: "Only orders of this event (evt_…)",
  is_refunded: "Only refunded (true) or only not refunded (false) orders",
  order_source: "Only orders from this channel (order_source, exact)",
  payment_method: "Only orders paid with this payment method (exact)",
};
const Q_NOTE = "Case-insensitive match on customer email, name or phone, or an exact order number";
const SORT_NOTE = "date (created_at), price (total_price) or customer_name (case-insensitive)";

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
        sort: SORT_NOTE,
        q: Q_NOTE,
        ...TRANSACTION_FILTER_NOTES,
        cursor: "next_cursor of the previous page: the next page of the same sort and filters, in constant time at any depth",
      },
      response: { status: 200, description: "The transactions envelope", schema: transactionsResponseSchema, name: "TransactionsResponse", example: TRANSACTIONS_EXAMPLE },
    },
    summarizeTransactions: {
      method: "get",
      path: "/analytics_search/api/summary",
      summary: "Summarize transactions",
      description:
        "Orders, tickets (sum of cart item quantities), revenue (sum of total_price, refunded orders included) and refunds " +
        "of the orders the transactions search returns for the same filters, grouped. Money in minor units. Time buckets are " +
        "UTC (weeks start on Monday) and contiguous, empty ones with zeros; other groups list only keys with orders, by revenue. " +
        "Grouped by ticket_type, an order counts under each type it holds and revenue is the items' unit price × quantity.",
      access: { scope: "orders:read" },
      query: summaryQuerySchema,
      queryNotes: {
        group_by: "day, week, month, event, ticket_type, order_source or payment_method",
        ...TRANSACTION_FILTER_NOTES,
        event_id: "Only orders of this event (evt_…); an id that is not one of the organization's events is a 400",
      },
      response: { status: 200, description: "Figures per group and in total", schema: summaryResponseSchema, name: "TransactionsSummary", example: SUMMARY_EXAMPLE },
    },
    exportTransactions: {
      method: "get",
      path: "/analytics_search/api/transactions/export",
      summary: "Export transactions",
      description:
        "Every order the transactions search matches, in its sort order, streamed as a download (Content-Disposition: " +
        "attachment): CSV (RFC 4180, UTF-8, header row, CRLF) or JSON Lines. Money in minor units, timestamps ISO 8601 UTC. " +
        "CSV cells starting with = + - @, tab or carriage return get a leading ' so spreadsheets do not run them. " +
        "Counts as one request for the rate limit. The columns are listed in the README (Export columns).",
      access: { scope: "orders:read" },
      query: exportQuerySchema,
      queryNotes: {
        sort: SORT_NOTE,
        q: Q_NOTE,
        ...TRANSACTION_FILTER_NOTES,
        format: "csv (default) or jsonl",
        rows: "orders (default): one row per order; items: one row per cart item",
      },
      response: {
        status: 200,
        description: "text/csv or application/x-ndjson, streamed",
        media: { "text/csv": EXPORT_CSV_EXAMPLE, "application/x-ndjson": EXPORT_JSONL_EXAMPLE },
      },
    },
  },
);
