import { z } from "zod";
import { refineDateRange, transactionFilterShape } from "@/lib/orders/order-schemas";

export const TIME_GROUPS = ["day", "week", "month"] as const;
export const SUMMARY_GROUPS = [...TIME_GROUPS, "event", "ticket_type", "order_source", "payment_method"] as const;
export type TimeGroup = (typeof TIME_GROUPS)[number];
export type SummaryGroup = (typeof SUMMARY_GROUPS)[number];

export const isTimeGroup = (group: SummaryGroup): group is TimeGroup => (TIME_GROUPS as readonly string[]).includes(group);

/** GET /analytics_search/api/summary: the transactions search's filters (without q) and a grouping. */
export const summaryQuerySchema = z
  .object({ group_by: z.enum(SUMMARY_GROUPS).default("day"), ...transactionFilterShape })
  .superRefine(refineDateRange);
export type SummaryQuery = z.output<typeof summaryQuerySchema>;

const figuresSchema = z.object({
  orders: z.int().describe("Orders placed"),
  tickets: z.int().describe("Tickets sold: the sum of the orders' cart item quantities"),
  revenue: z.int().describe("Sum of the orders' total_price, minor units (refunded orders included)"),
  refunded_orders: z.int().describe("Of those orders, the refunded ones"),
  refunded_amount: z.int().describe("Sum of the refunded orders' total_price, minor units"),
});
export type SummaryFigures = z.infer<typeof figuresSchema>;

export const summaryGroupSchema = figuresSchema.extend({
  key: z.string().describe("Bucket start (YYYY-MM-DD, a Monday for weeks; YYYY-MM for months), or the id or value grouped by"),
  label: z.string(),
});
export type SummaryGroupRow = z.infer<typeof summaryGroupSchema>;

export const summarySchema = z.object({
  groups: z.array(summaryGroupSchema),
  totals: figuresSchema,
  currency: z.string(),
});
export type Summary = z.infer<typeof summarySchema>;

export const summaryResponseSchema = z.object({ data: summarySchema, trace_id: z.string() });
