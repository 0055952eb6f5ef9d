import { describe, expect, it } from "vitest";
import { createOrderBodySchema, listOrdersQuerySchema, transactionsQuerySchema } from "@/lib/orders/order-schemas";
import { discountOf } from "@/lib/orders/pricing";

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join(".")) ?? [];

describe("transactionsQuerySchema", () => {
  it("applies the spec defaults", () => {
    expect(transactionsQuerySchema.parse({})).toEqual({ size: 100, from: 0, sort: "date", order: "desc" });
  });

  it("parses every parameter", () => {
    const parsed = transactionsQuerySchema.parse({
      size: "1000",
      from: "7",
      sort: "customer_name",
      order: "asc",
      date_from: "2026-01-01T00:00:00.123456+02:00",
      date_to: "2026-01-31",
      q: "  Ada ",
      event_id: "evt_0123456789abcdef0123456789abcdef",
      is_refunded: "false",
    });
    expect(parsed).toEqual({
      size: 1000,
      from: 7,
      sort: "customer_name",
      order: "asc",
      date_from: { text: "2026-01-01T00:00:00.123456+02:00", wholeDay: false },
      date_to: { text: "2026-01-31T00:00:00Z", wholeDay: true },
      q: "Ada",
      event_id: "01234567-89ab-cdef-0123-456789abcdef",
      is_refunded: false,
    });
  });

  it.each([
    [{ size: "0" }, ["size"]],
    [{ size: "1001" }, ["size"]],
    [{ size: "0x10" }, ["size"]],
    [{ from: "-1" }, ["from"]],
    [{ from: "2147483648" }, ["from"]],
    [{ sort: "bogus" }, ["sort"]],
    [{ order: "DESC" }, ["order"]],
    [{ date_from: "2026-01-01 00:00:00Z" }, ["date_from"]],
    [{ date_to: "1700000000" }, ["date_to"]],
    [{ is_refunded: "1" }, ["is_refunded"]],
    [{ event_id: "ord_0123456789abcdef0123456789abcdef" }, ["event_id"]],
    [{ date_from: "2026-01-02", date_to: "2026-01-01T23:59:59Z" }, ["date_from"]],
  ])("rejects %j", (input, paths) => {
    expect(issuesOf(transactionsQuerySchema.safeParse(input))).toEqual(paths);
  });

  it("lets a bare date_to cover its whole day", () => {
    expect(transactionsQuerySchema.safeParse({ date_from: "2026-01-01T23:00:00Z", date_to: "2026-01-01" }).success).toBe(true);
  });
});

describe("listOrdersQuerySchema", () => {
  it("defaults and bounds page and per_page", () => {
    expect(listOrdersQuerySchema.parse({})).toEqual({ page: 1, per_page: 25 });
    expect(issuesOf(listOrdersQuerySchema.safeParse({ page: "0", per_page: "101", status: "open" }))).toEqual([
      "page",
      "per_page",
      "status",
    ]);
  });
});

describe("createOrderBodySchema", () => {
  const valid = {
    event_id: "evt_x",
    customer: { email: "a@example.test", name: "A" },
    items: [{ ticket_id: "tkt_a", quantity: 1 }],
  };

  it("accepts a minimal body and refuses unknown fields at every level", () => {
    expect(createOrderBodySchema.safeParse(valid).success).toBe(true);
    expect(issuesOf(createOrderBodySchema.safeParse({ ...valid, coupon: "x" }))).toEqual([""]);
    expect(issuesOf(createOrderBodySchema.safeParse({ ...valid, customer: { ...valid.customer, age: 3 } }))).toEqual([
      "customer",
    ]);
  });

  it("bounds the items: 1..50 lines, quantity 1..100, no duplicate tickets", () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ ticket_id: `tkt_${i}`, quantity: 1 }));
    expect(createOrderBodySchema.safeParse({ ...valid, items: items(50) }).success).toBe(true);
    expect(issuesOf(createOrderBodySchema.safeParse({ ...valid, items: items(51) }))).toEqual(["items"]);
    expect(
      issuesOf(
        createOrderBodySchema.safeParse({
          ...valid,
          items: [
            { ticket_id: "tkt_a", quantity: 100 },
            { ticket_id: "tkt_a", quantity: 1.5 },
          ],
        }),
      ),
    ).toEqual(["items.1.quantity"]);
    expect(
      issuesOf(
        createOrderBodySchema.safeParse({
          ...valid,
          items: [
            { ticket_id: "tkt_a", quantity: 1 },
            { ticket_id: "tkt_a", quantity: 2 },
          ],
        }),
      ),
    ).toEqual(["items.1.ticket_id"]);
  });
});

describe("discountOf", () => {
  it("takes a fixed amount, capped at the total", () => {
    expect(discountOf({ discountKind: "amount", discountValue: 500 }, 2_000)).toBe(500);
    expect(discountOf({ discountKind: "amount", discountValue: 5_000 }, 2_000)).toBe(2_000);
  });

  it("takes a whole percent rounded down, capped at the total", () => {
    expect(discountOf({ discountKind: "percent", discountValue: 10 }, 1_999)).toBe(199);
    expect(discountOf({ discountKind: "percent", discountValue: 150 }, 1_000)).toBe(1_000);
    expect(discountOf({ discountKind: "percent", discountValue: 0 }, 1_000)).toBe(0);
  });
});
