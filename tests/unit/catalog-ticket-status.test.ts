import { describe, expect, it } from "vitest";
import { ticketTypeStatus, type TicketTypeRow } from "@/lib/catalog/ticket-types";

const now = new Date("2027-01-10T12:00:00Z");
const row = (overrides: Partial<TicketTypeRow> = {}): TicketTypeRow => ({
  id: "00000000-0000-4000-8000-000000000001",
  organizationId: "00000000-0000-4000-8000-000000000002",
  eventId: "00000000-0000-4000-8000-000000000003",
  name: "Seat",
  category: "Admission",
  price: 1000,
  currency: "SEK",
  vatPercent: 6,
  quantityTotal: 10,
  quantitySold: 0,
  saleStartsAt: new Date("2027-01-01T00:00:00Z"),
  saleEndsAt: new Date("2027-02-01T00:00:00Z"),
  cancelledAt: null,
  createdAt: now,
  updatedAt: now,
  ...overrides,
});

describe("ticketTypeStatus", () => {
  it("is on_sale inside the window with tickets left", () => {
    expect(ticketTypeStatus(row(), "published", now)).toBe("on_sale");
    expect(ticketTypeStatus(row({ saleStartsAt: now }), "draft", now)).toBe("on_sale");
  });

  it("is scheduled before the window and sale_ended from its end on", () => {
    expect(ticketTypeStatus(row({ saleStartsAt: new Date("2027-01-11T00:00:00Z") }), "published", now)).toBe("scheduled");
    expect(ticketTypeStatus(row({ saleEndsAt: now }), "published", now)).toBe("sale_ended");
  });

  it("is sold_out when nothing is left, whatever the window", () => {
    expect(ticketTypeStatus(row({ quantitySold: 10 }), "published", now)).toBe("sold_out");
    expect(ticketTypeStatus(row({ quantityTotal: 0, saleEndsAt: now }), "published", now)).toBe("sold_out");
  });

  it("is cancelled when the type or its event is cancelled", () => {
    expect(ticketTypeStatus(row({ cancelledAt: now, quantitySold: 10 }), "published", now)).toBe("cancelled");
    expect(ticketTypeStatus(row(), "cancelled", now)).toBe("cancelled");
  });
});
