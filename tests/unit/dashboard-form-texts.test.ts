import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FORM_PARSE } from "@/lib/dashboard/form-submission";
import { eventFormSchema, ticketTypeFormSchema } from "@/lib/dashboard/events";

const messages = (result: { success: boolean; error?: z.ZodError }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("form messages are written for people", () => {
  it("names the field where a schema gives no message of its own, instead of zod's defaults", () => {
    const schema = z.strictObject({ quantity_total: z.int().max(5), venue_id: z.string().min(1), kind: z.enum(["a", "b"]) });
    expect(messages(schema.safeParse({ quantity_total: 9, kind: "c" }, FORM_PARSE))).toEqual({
      quantity_total: "The quantity total must be at most 5",
      venue_id: "Enter the venue id",
      kind: "Choose one of the offered kind values",
    });
    // A schema's own wording stays.
    expect(messages(z.object({ name: z.string().min(1, "Give it a name") }).safeParse({ name: "" }, FORM_PARSE))).toEqual({ name: "Give it a name" });
  });

  it("says an event's or a sale's end must come after its start, in the form's words", () => {
    const event = { name: "Gig", venue_id: "ven_1", starts_at: "2030-01-01T20:00", ends_at: "2030-01-01T18:00" };
    expect(messages(eventFormSchema.safeParse(event, FORM_PARSE))).toEqual({ ends_at: "Must be after the start" });
    expect(messages(eventFormSchema.safeParse({ ...event, ends_at: "" }, FORM_PARSE))).toEqual({ ends_at: "Enter a date and time" });
    const ticket = {
      event_id: "evt_1",
      name: "Standard",
      category: "",
      price: "10",
      quantity_total: "10",
      vat: "",
      sale_starts_at: "2030-01-01T20:00",
      sale_ends_at: "2030-01-01T20:00",
    };
    expect(messages(ticketTypeFormSchema("SEK").safeParse(ticket, FORM_PARSE))).toEqual({ sale_ends_at: "Must be after the sale start" });
  });
});
