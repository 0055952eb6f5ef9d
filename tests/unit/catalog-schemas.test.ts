import { describe, expect, it } from "vitest";
import { paginationQuerySchema } from "@/lib/http/pagination";
import { createEventSchema, updateEventSchema } from "@/lib/catalog/event-schemas";
import { createTicketTypeSchema, updateTicketTypeSchema } from "@/lib/catalog/ticket-type-schemas";
import { countryCodeSchema, createVenueSchema, updateVenueSchema } from "@/lib/catalog/venue-schemas";

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join(".")) ?? [];

describe("catalog schemas", () => {
  it("accepts assigned upper-case ISO 3166-1 alpha-2 codes only", () => {
    for (const code of ["SE", "NO", "DK", "FI", "DE", "US", "AX"]) expect(countryCodeSchema.safeParse(code).success).toBe(true);
    expect(countryCodeSchema.safeParse("se").error?.issues).toHaveLength(1);
    for (const code of ["se", "Se", "SWE", "XX", "EU", "UK", "", "S"]) expect(countryCodeSchema.safeParse(code).success).toBe(false);
  });

  it("requires every venue field on create and takes any subset on update", () => {
    const venue = {
      name: " Hall ",
      address: { street: "Main 1", city: "Oslo", postal_code: "0150", country: "NO" },
      capacity: 1,
    };
    expect(createVenueSchema.parse(venue).name).toBe("Hall");
    expect(paths(createVenueSchema.safeParse({ ...venue, capacity: 1_000_001 }))).toEqual(["capacity"]);
    expect(paths(createVenueSchema.safeParse({ ...venue, address: { ...venue.address, postal_code: "" } }))).toEqual([
      "address.postal_code",
    ]);
    expect(updateVenueSchema.parse({ address: { city: "Bergen" } })).toEqual({ address: { city: "Bergen" } });
    expect(updateVenueSchema.safeParse({ address: { town: "Bergen" } }).success).toBe(false);
  });

  it("parses timestamps with an offset into instants and orders the event window", () => {
    const event = createEventSchema.parse({
      name: "Gig",
      starts_at: "2027-01-01T20:00:00+01:00",
      ends_at: "2027-01-01T19:30:00.000Z",
      venue_id: "ven_1",
    });
    expect(event.starts_at.toISOString()).toBe("2027-01-01T19:00:00.000Z");
    expect(
      paths(createEventSchema.safeParse({ name: "Gig", starts_at: "2027-01-01T20:00:00Z", ends_at: "2027-01-01T20:00:00Z", venue_id: "v" })),
    ).toEqual(["ends_at"]);
    expect(paths(updateEventSchema.safeParse({ starts_at: "2027-02-30T20:00:00Z" }))).toEqual(["starts_at"]);
    expect(
      paths(createEventSchema.safeParse({ name: "Gig", starts_at: "tomorrow", ends_at: "2027-01-01T20:00:00Z", venue_id: "v" })),
    ).toEqual(["starts_at"]);
    expect(updateEventSchema.parse({ description: null })).toEqual({ description: null });
  });

  it("keeps quantity_sold out of ticket type bodies and orders the sale window", () => {
    const ticket = {
      name: "Seat",
      price: 0,
      quantity_total: 0,
      sale_starts_at: "2027-01-01T00:00:00Z",
      sale_ends_at: "2027-01-02T00:00:00Z",
    };
    expect(createTicketTypeSchema.safeParse(ticket).success).toBe(true);
    expect(createTicketTypeSchema.safeParse({ ...ticket, quantity_sold: 0 }).success).toBe(false);
    expect(updateTicketTypeSchema.safeParse({ quantity_sold: 0 }).success).toBe(false);
    expect(paths(updateTicketTypeSchema.safeParse({ sale_starts_at: ticket.sale_ends_at, sale_ends_at: ticket.sale_starts_at }))).toEqual([
      "sale_ends_at",
    ]);
  });

  it("defaults and bounds pagination", () => {
    expect(paginationQuerySchema.parse({})).toEqual({ page: 1, per_page: 25 });
    expect(paginationQuerySchema.parse({ page: "3", per_page: "100" })).toEqual({ page: 3, per_page: 100 });
    for (const query of [{ page: "0" }, { per_page: "101" }, { page: "1.5" }, { per_page: "" }, { page: "x" }, { page: "0x10" }, { page: "2147483648" }]) {
      expect(paginationQuerySchema.safeParse(query).success).toBe(false);
    }
  });
});
