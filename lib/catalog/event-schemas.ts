import { z } from "zod";
import { EVENT_STATUSES } from "@/db/schema";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { endsAfter, nameSchema, timestampOutSchema, timestampSchema } from "./common-schemas";

export const eventStatusSchema = z.enum(EVENT_STATUSES);
const descriptionSchema = z.string().max(5000);
const venueIdSchema = z.string().min(1).describe("ven_… of a venue of the organization");

export const listEventsQuerySchema = paginationQuerySchema.extend({
  status: eventStatusSchema.optional(),
  venue_id: z.string().regex(/^ven_[0-9a-fA-F]{32}$/, "Must be a venue id (ven_…)").optional(),
});
export type ListEventsQuery = z.output<typeof listEventsQuerySchema>;

export const createEventSchema = z
  .strictObject({
    name: nameSchema,
    description: descriptionSchema.optional(),
    starts_at: timestampSchema,
    ends_at: timestampSchema,
    venue_id: venueIdSchema,
    // A new event may go live at once; cancelling is only meaningful for an existing one.
    status: z.enum(["draft", "published"]).optional(),
  })
  .refine(...endsAfter("starts_at", "ends_at"));
export type CreateEventInput = z.output<typeof createEventSchema>;

/** Any subset; starts_at < ends_at is checked on the values after merging. null clears the description. */
export const updateEventSchema = z.strictObject({
  name: nameSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  starts_at: timestampSchema.optional(),
  ends_at: timestampSchema.optional(),
  venue_id: venueIdSchema.optional(),
  status: eventStatusSchema.optional(),
});
export type UpdateEventInput = z.output<typeof updateEventSchema>;

export const eventSchema = z.object({
  id: z.string().describe("evt_…"),
  name: z.string(),
  description: z.string().optional(),
  status: eventStatusSchema,
  starts_at: timestampOutSchema,
  ends_at: timestampOutSchema,
  has_ended: z.boolean().describe("Whether ends_at has passed, as of this response; status is unchanged by it"),
  venue: z.object({ id: z.string(), name: z.string() }),
  created_at: timestampOutSchema,
  updated_at: timestampOutSchema,
});
export type Event = z.output<typeof eventSchema>;

export const eventListSchema = z.object({ data: z.array(eventSchema), meta: paginationMetaSchema });
