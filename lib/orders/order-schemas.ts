import { z } from "zod";
import { ORDER_STATUSES } from "@/db/schema";
import { PG_INT_MAX, intParam, paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { fromPublicId, type IdKind } from "@/lib/ids";
import { cursorFingerprint, cursorParam } from "./transactions-cursor";

function publicIdParam(kind: IdKind, example: string) {
  return z.string().transform((text, ctx) => {
    const uuid = fromPublicId(kind, text);
    if (!uuid) {
      ctx.addIssue({ code: "custom", message: `must be an id like ${example}` });
      return z.NEVER;
    }
    return uuid;
  });
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date filter bound: an ISO 8601 timestamp with Z or an offset, or a bare date (a whole UTC day).
 * `sql` is the text PostgreSQL compares against (kept as text so sub-millisecond precision survives).
 */
const dateBound = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "must be an ISO 8601 timestamp with Z or an offset (2024-05-01T12:00:00Z) or a date (2024-05-01)",
  })
  .transform((text) => ({ text: DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text, wholeDay: DATE_ONLY.test(text) }));

const DAY_MS = 86_400_000;

// ---------- Transactions search (spec 4.1; filters q, event_id, is_refunded from issue 3) ----------

export const TRANSACTION_SORTS = ["date", "price", "customer_name"] as const;

/** The transactions search's filters, shared by its summary and export (lib/analytics). */
export const transactionFilterShape = {
  date_from: dateBound.optional(),
  date_to: dateBound.optional(),
  event_id: publicIdParam("event", "evt_…").optional(),
  is_refunded: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  order_source: z.string().trim().min(1, "must not be empty").max(100).optional(),
  payment_method: z.string().trim().min(1, "must not be empty").max(100).optional(),
};

type DateRange = { date_from?: z.output<typeof dateBound>; date_to?: z.output<typeof dateBound> };

/** date_from must not be after date_to; a bare date_to covers its whole day, so compare against the end of that day. */
export function refineDateRange(query: DateRange, ctx: z.RefinementCtx): void {
  if (!query.date_from || !query.date_to) return;
  const to = Date.parse(query.date_to.text) + (query.date_to.wholeDay ? DAY_MS - 1 : 0);
  if (Date.parse(query.date_from.text) > to) {
    ctx.addIssue({ code: "custom", path: ["date_from"], message: "must not be after date_to" });
  }
}

export const transactionSortShape = {
  sort: z.enum(TRANSACTION_SORTS).default("date"),
  order: z.enum(["desc", "asc"]).default("desc"),
  q: z.string().trim().min(1, "must not be empty").max(200).optional(),
};

export const transactionsQuerySchema = z
  .object({
    size: intParam(1, 1000, 100),
    from: intParam(0, PG_INT_MAX, 0),
    ...transactionSortShape,
    ...transactionFilterShape,
    // next_cursor of the previous page: continues after its last order (same sort and filters required).
    cursor: cursorParam.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.cursor && query.cursor.f !== cursorFingerprint(query)) {
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "was made for another sort or other filters" });
    }
    if (query.cursor && query.from !== 0) {
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "cannot be combined with from" });
    }
    refineDateRange(query, ctx);
  });
export type TransactionsQuery = z.output<typeof transactionsQuerySchema>;

const cartItemSchema = z.object({
  product_type: z.string(),
  name: z.string(),
  quantity: z.int(),
  price: z.int().describe("Unit price, minor units"),
  vat: z.number().describe("VAT percentage"),
  event: z.string().describe("Event id (evt_…)"),
  event_name: z.string(),
  category: z.string(),
});

const cartCampaignSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  code: z.string(),
  discount_amount: z.int(),
});

/**
 * Spec 2.2. Beyond the listed fields (the spec allows more) it carries `customer_name` (a sort key of the
 * search, so callers can see what they sorted by) and, once refunded, `refund_reason` and `refunded_at`.
 * Optional fields that are null are omitted.
 */
export const transactionOrderSchema = z.object({
  uuid: z.uuid(),
  email: z.string(),
  phone_number: z.string().optional(),
  customer_name: z.string(),
  total_price: z.int(),
  payment_method: z.string(),
  payment_method_brand: z.string(),
  is_refunded: z.boolean(),
  order_number: z.int(),
  order_source: z.string(),
  created_at: z.iso.datetime(),
  refund_reason: z.string().optional(),
  refunded_at: z.iso.datetime().optional(),
  cart: z.object({
    organization: z.string().describe("Organization id (org_…)"),
    event: z.string().describe("Event id (evt_…)"),
    currency: z.string(),
    total_price: z.int(),
    original_price: z.int(),
    items: z.array(cartItemSchema),
    campaigns: z.array(cartCampaignSchema),
  }),
});

export const transactionsResponseSchema = z.object({
  data: z.object({
    total_count: z.int(),
    orders: z.array(transactionOrderSchema),
    next_cursor: z.string().optional().describe("Pass as `cursor` for the next page; omitted on the last page"),
  }),
  trace_id: z.string(),
});

// ---------- /v1 orders (spec 2.3, 4.2) ----------

export const listOrdersQuerySchema = paginationQuerySchema.extend({
  event_id: publicIdParam("event", "evt_…").optional(),
  status: z.enum(ORDER_STATUSES).optional(),
});
export type ListOrdersQuery = z.output<typeof listOrdersQuerySchema>;

export const refundOrderBodySchema = z.strictObject({
  // Stored as sent; an empty or blank reason means no reason.
  reason: z.string().max(500).optional(),
});

const nameText = z.string().trim().min(1).max(200);
const labelText = z.string().trim().min(1).max(100);

export const createOrderBodySchema = z.strictObject({
  event_id: z.string().min(1).max(100),
  customer: z.strictObject({
    email: z.email().max(320),
    name: nameText,
    phone_number: z.string().trim().min(1).max(50).optional(),
  }),
  items: z
    .array(
      z.strictObject({
        ticket_id: z.string().min(1).max(100),
        quantity: z.int().min(1).max(100),
      }),
    )
    .min(1)
    .max(50)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (seen.has(item.ticket_id)) {
          ctx.addIssue({ code: "custom", path: [index, "ticket_id"], message: "duplicate ticket_id; raise quantity instead" });
        }
        seen.add(item.ticket_id);
      });
    }),
  campaign_code: z.string().trim().min(1).max(100).optional(),
  payment_method: labelText.optional(),
  payment_method_brand: labelText.optional(),
  order_source: labelText.optional(),
});
export type CreateOrderInput = z.output<typeof createOrderBodySchema>;

/**
 * Spec 2.3. Extra fields (the spec lists the minimum): `order_number`, `event_id`, `original_price`
 * (before campaign discounts), `customer.phone_number`, and once refunded `refund_reason` and `refunded_at`.
 */
export const orderSchema = z.object({
  id: z.string().describe("Order id (ord_…)"),
  status: z.enum(ORDER_STATUSES),
  total: z.int(),
  original_price: z.int(),
  currency: z.string(),
  order_number: z.int(),
  event_id: z.string(),
  items: z.array(
    z.object({ ticket_id: z.string(), ticket_name: z.string(), quantity: z.int(), unit_price: z.int() }),
  ),
  customer: z.object({ email: z.string(), name: z.string(), phone_number: z.string().optional() }),
  created_at: z.iso.datetime(),
  refund_reason: z.string().optional(),
  refunded_at: z.iso.datetime().optional(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderListResponseSchema = z.object({
  data: z.array(orderSchema),
  meta: paginationMetaSchema,
});
