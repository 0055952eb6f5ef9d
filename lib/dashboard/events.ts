import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { ticketTypes } from "@/db/schema";
import { fromPublicId } from "@/lib/ids";
import { currencyDigits } from "./format";

/** Tickets sold and on offer per event (public id), summed over the event's ticket types. */
export async function ticketTotals(
  organizationId: string,
  eventPublicIds: string[],
): Promise<Map<string, { sold: number; total: number }>> {
  const byUuid = new Map(eventPublicIds.map((id) => [fromPublicId("event", id) ?? "", id]));
  byUuid.delete("");
  if (byUuid.size === 0) return new Map();
  const rows = await db
    .select({
      eventId: ticketTypes.eventId,
      sold: sql<number>`coalesce(sum(${ticketTypes.quantitySold}), 0)`.mapWith(Number),
      total: sql<number>`coalesce(sum(${ticketTypes.quantityTotal}), 0)`.mapWith(Number),
    })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.organizationId, organizationId), inArray(ticketTypes.eventId, [...byUuid.keys()])))
    .groupBy(ticketTypes.eventId);
  return new Map(rows.map((row) => [byUuid.get(row.eventId)!, { sold: row.sold, total: row.total }]));
}

const DATETIME_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** A `datetime-local` input's value, read as UTC (the forms say so) and given on as an ISO timestamp. */
const utcDateTime = z
  .string({ error: "Enter a date and time" })
  .regex(DATETIME_LOCAL, "Enter a date and time")
  .transform((text) => `${text.length === 16 ? `${text}:00` : text}Z`);

const optionalText = z
  .string()
  .trim()
  .transform((text) => text || undefined)
  .optional();

/** The event form: turned into the body createEventSchema / updateEventSchema check. */
export const eventFormSchema = z.strictObject({
  name: z.string().trim().min(1, "Give the event a name").max(200, "At most 200 characters"),
  description: optionalText,
  venue_id: z.string({ error: "Choose a venue" }).min(1, "Choose a venue"),
  starts_at: utcDateTime,
  ends_at: utcDateTime,
});

export const eventStatusFormSchema = z.strictObject({ id: z.string().min(1), status: z.enum(["published", "cancelled"]) });

/** Amounts are typed in major units (12.50); the API takes minor units, by the currency's digits. */
export function minorUnitsSchema(currency: string) {
  const digits = currencyDigits(currency);
  return z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{1,9}(\\.\\d{1,${digits}})?$`), `Enter an amount like 250${digits ? `.${"0".repeat(digits)}` : ""}`)
    .transform((text) => {
      const [whole = "0", fraction = ""] = text.split(".");
      return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || 0);
    });
}

const wholeNumber = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

export function ticketTypeFormSchema(currency: string) {
  return z.strictObject({
    event_id: z.string().min(1),
    name: z.string().trim().min(1, "Give the ticket type a name").max(200, "At most 200 characters"),
    category: optionalText,
    price: minorUnitsSchema(currency),
    quantity_total: wholeNumber("Enter a whole number of tickets"),
    vat: z
      .string()
      .trim()
      .refine((text) => text === "" || (/^\d{1,3}(\.\d{1,2})?$/.test(text) && Number(text) <= 100), "Enter a percentage from 0 to 100")
      .transform((text) => (text === "" ? undefined : Number(text))),
    sale_starts_at: utcDateTime,
    sale_ends_at: utcDateTime,
  });
}

/** The delete form of a ticket type: the event in the path and the ticket type. */
export const ticketTypeIdFormSchema = z.strictObject({ event_id: z.string().min(1), id: z.string().min(1) });
