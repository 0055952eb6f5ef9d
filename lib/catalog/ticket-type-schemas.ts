import { z } from "zod";
import { CURRENCIES } from "@/db/schema";
import { endsAfter, nameSchema, timestampOutSchema, timestampSchema } from "./common-schemas";

export const TICKET_TYPE_STATUSES = ["scheduled", "on_sale", "sold_out", "sale_ended", "cancelled"] as const;
export type TicketTypeStatus = (typeof TICKET_TYPE_STATUSES)[number];

const priceSchema = z.int().min(0).max(100_000_000).describe("Minor units");
const quantitySchema = z.int().min(0).max(1_000_000);
// Checked against the organization's currency by the domain code, which knows it.
const currencySchema = z.string().describe("Must equal the organization's currency; defaults to it");
const categorySchema = z.string().trim().min(1).max(100);
const vatSchema = z.number().min(0).max(100).describe("VAT percent");
const saleWindowOrdered = endsAfter("sale_starts_at", "sale_ends_at");

const ticketTypeFields = z.strictObject({
  name: nameSchema,
  price: priceSchema,
  currency: currencySchema.optional(),
  quantity_total: quantitySchema,
  sale_starts_at: timestampSchema,
  sale_ends_at: timestampSchema,
  category: categorySchema.optional(),
  vat: vatSchema.optional(),
});

export const createTicketTypeSchema = ticketTypeFields.refine(...saleWindowOrdered);
export type CreateTicketTypeInput = z.output<typeof createTicketTypeSchema>;

/** Any subset; quantity_sold is not a field here, so sending it is refused as unknown. */
export const updateTicketTypeSchema = ticketTypeFields.partial().refine(...saleWindowOrdered);
export type UpdateTicketTypeInput = z.output<typeof updateTicketTypeSchema>;

export const ticketTypeSchema = z.object({
  id: z.string().describe("tkt_…"),
  event_id: z.string().describe("evt_…"),
  name: z.string(),
  category: z.string(),
  price: z.int(),
  currency: z.enum(CURRENCIES),
  vat: z.number(),
  quantity_total: z.int(),
  quantity_sold: z.int().describe("Read-only"),
  status: z.enum(TICKET_TYPE_STATUSES),
  sale_starts_at: timestampOutSchema,
  sale_ends_at: timestampOutSchema,
  created_at: timestampOutSchema,
});
export type TicketType = z.output<typeof ticketTypeSchema>;

export const ticketTypeListSchema = z.object({ data: z.array(ticketTypeSchema) });
