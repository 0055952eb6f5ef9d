import { z } from "zod";
import { refineDateRange, transactionFilterShape, transactionSortShape } from "@/lib/orders/order-schemas";

export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
export const EXPORT_ROWS = ["orders", "items"] as const;

/** GET /analytics_search/api/transactions/export: the transactions search's filters and sort, no paging. */
export const exportQuerySchema = z
  .object({
    ...transactionSortShape,
    ...transactionFilterShape,
    format: z.enum(EXPORT_FORMATS).default("csv"),
    rows: z.enum(EXPORT_ROWS).default("orders"),
  })
  .superRefine(refineDateRange);
export type ExportQuery = z.output<typeof exportQuerySchema>;
