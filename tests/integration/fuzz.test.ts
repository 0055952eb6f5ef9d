/**
 * Property-based hostile input over every endpoint: queries, bodies, raw bytes, path ids and
 * Authorization headers. Whatever arrives, the API never answers 5xx, every non-2xx answer is the error
 * body with a matching X-Trace-Id, and input that is invalid by construction changes no row.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ID_PREFIXES, type IdKind } from "@/lib/ids";
import { eventBody, hoursFromNow, ticketBody, venueBody } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { callApi, expectApiError, expectErrorContract, rawRequest, readResult } from "../support/http";
import { useReceivers } from "../support/receiver";
import { useTestServer } from "../support/server";
import { seedTenantWorld, snapshotTables, type TenantWorld } from "../support/tenant-world";

// Thousands of generated requests go to the user-token endpoints within a minute: the per-user limit
// (its own test is in dashboard-security) would answer most of them 429 before their input is judged.
vi.hoisted(() => {
  process.env.DASHBOARD_RATE_LIMIT_PER_MINUTE = "1000000";
});

// Spec 8 / issue: bodies over 1 MiB are refused with 413.
const MAX_BODY_BYTES = 1024 * 1024;
const RUNS = { numRuns: 40 };

// ---------- Hostile values ----------

/** Injection and escape strings, numbers as text, unicode edge cases, NUL and lone surrogates. */
const NASTY = [
  "' or 1=1 --",
  '" or ""="',
  "'; drop table orders; --",
  "Robert'); DROP TABLE venues;--",
  '"}',
  '"}, "admin": true, "x": {"',
  '{"$gt": ""}',
  "\\",
  '\\\\"',
  "\\u0000",
  "%",
  "%00",
  "%FF",
  "${7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-1",
  "0",
  "-0",
  "1e308",
  "1e400",
  "9007199254740993",
  "0x10",
  "1.5",
  "true",
  "[]",
  "{}",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\udc00\ud800",
  "😀",
  "👨‍👩‍👧‍👦",
  "\u202e\u2066evil\u2069",
  "مرحبا بالعالم",
  "עברית",
  "\u200b",
  "\ufeff",
  "e\u0301\u0301\u0301",
  "\r\n",
  "\t",
  " ",
  "",
];
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const nastyText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NASTY), fc.constantFrom(...NASTY)).map(([a, b]) => a + b) },
);
const HUGE = ["x".repeat(100_000), "😀".repeat(30_000), "\u0000".repeat(2_000), "\\".repeat(50_000)];

/** JSON text placed into a body as it is: numbers JSON.stringify cannot write, and deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}
const rawNumber = fc
  .constantFrom("1e400", "-1e400", "123456789012345678901234567890", "1.0000000000000002", "-1e-400")
  .map((text) => new RawJson(text));
const deepJson = fc
  .tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom(["[", "]"], ['{"a":', "}"]), fc.constantFrom("1", '"\\ud800"'))
  .map(([depth, [open, close], bottom]) => new RawJson(open!.repeat(depth) + bottom + close!.repeat(depth)));

function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const marker = `raw-${randomUUID()}-`;
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? `${marker}${raws.push(v.text) - 1}` : v));
  return text.replace(new RegExp(`"${marker}(\\d+)"`, "g"), (_match, index: string) => raws[Number(index)]!);
}

const notString = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53, 1.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(nastyText, { maxLength: 3 }),
  fc.dictionary(nastyText, nastyText, { maxKeys: 3 }),
  rawNumber,
  deepJson,
);
const notStringOrNull = notString.filter((value) => value !== null);
// Where an object is expected: notString would include {}, which is a valid partial address.
const notObject = fc.oneof(fc.constantFrom(null, true, 0, -1, "", "address"), nastyText, fc.array(nastyText, { maxLength: 2 }), rawNumber);
const notNumber = fc.oneof(
  fc.constantFrom(null, true, false, "1", "0", "-1", "1e308", "NaN", "Infinity", ""),
  nastyText,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(nastyText, fc.integer(), { maxKeys: 3 }),
  deepJson,
);

// Each of these is refused by the field's rules or by PostgreSQL (NUL in text), never stored.
const blank = fc.constantFrom("", " ", "   ", "\t\n", "\u00a0", "\u2003", "\u3000", "\ufeff");
const tooLong = (max: number) =>
  fc.oneof(
    fc.constant("y".repeat(max + 1)),
    fc.integer({ min: max + 1, max: Math.max(max + 1, 100_000) }).map((n) => "z".repeat(n)),
    nastyText.map((s) => s + "w".repeat(max + 1)),
  );
const withNul = nastyText.map((s) => `n${s}\u0000`);
// Unpaired surrogates: valid JSON escapes, but no Unicode text.
const withLoneSurrogate = fc.oneof(
  fc.constantFrom("\ud800", "a\udfffb", "é\ud800x", "€\udc00ab", "\udc00\ud800"),
  nastyText.map((s) => `${s}x\udc00`),
);
/** Bad for a free-text field where an empty value is allowed (and means none). */
const badOptionalText = (max: number) => fc.oneof(notString, tooLong(max), withNul, withLoneSurrogate);
const badText = (max: number) => fc.oneof(blank, badOptionalText(max));
const badInt = (min: number, max: number) =>
  fc.oneof(
    notNumber,
    fc.constantFrom(min - 1, max + 1, 1e308, -1e308, 2 ** 53, -(2 ** 53), min + 0.5, max - 0.25),
    fc.integer({ min: max + 1, max: 2 ** 31 }),
    fc.integer({ min: -(2 ** 31), max: min - 1 }),
    fc.double({ min, max, noNaN: true }).filter((d) => !Number.isInteger(d)),
    // "-1e-400" parses as -0, which is a valid 0 where the range holds 0.
    rawNumber.filter((raw) => {
      const value = JSON.parse(raw.text) as number;
      return !(Number.isInteger(value) && value >= min && value <= max);
    }),
  );
const badPercent = fc.oneof(
  notNumber,
  fc.constantFrom(-0.001, 100.001, -1, 101, 1e308, -1e308),
  fc.constantFrom("1e400", "-1e400", "123456789012345678901234567890").map((text) => new RawJson(text)),
);
const BAD_TIMESTAMPS = [
  "2026-02-30T00:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-00-10T00:00:00Z",
  "2026-01-32T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-01-01T23:60:00Z",
  "2026-01-01T23:59:60Z",
  "2026-01-01",
  "2026-01-01T10:00:00",
  "2026-01-01T10:00Z",
  "2026-01-01 10:00:00Z",
  "20260101T100000Z",
  "+002026-01-01T00:00:00Z",
  "-2026-01-01T00:00:00Z",
  "2026-W01-1T00:00:00Z",
  "2026-01-01T00:00:00+24:00",
  " 2026-01-01T00:00:00Z",
  "2026-01-01T00:00:00Z\n",
  "yesterday",
  "",
  // Well-formed, but no PostgreSQL timestamp: year 0, and a UTC time in year 10000.
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59-23:59",
];
const badTimestamp = fc.oneof(
  notString,
  fc.constantFrom(...BAD_TIMESTAMPS),
  nastyText.filter((s) => !/\d{4}-\d\d-\d\dT/.test(s)),
);
const badEnum = (values: string[]) =>
  fc.oneof(
    notString,
    nastyText.filter((s) => !values.includes(s)),
    fc.constantFrom(...values.map((v) => v.toUpperCase()), ...values.map((v) => ` ${v}`)),
  );
const badCountry = fc.oneof(
  notString,
  fc.constantFrom("se", "Se", "XX", "ZZ", "AA", "EU", "UK", "SWE", "S", " SE", "SE ", "S\u0000", "ÅÄ"),
  nastyText.filter((s) => !/^[A-Z]{2}$/.test(s)),
);
const badEmail = fc.oneof(
  notString,
  fc.constantFrom("plainaddress", "@example.test", "a@", "a b@example.test", "a@@example.test", "a@example..test", "a\u0000@example.test", `${"x".repeat(320)}@example.test`),
  nastyText.filter((s) => !s.includes("@")),
);
/** A reference to something the organization does not have: wrong type, malformed, unknown, or another kind. */
const badReference = (otherKindIds: string[]) =>
  fc.oneof(
    notString,
    fc.constant(""),
    nastyText,
    fc.tuple(fc.constantFrom(...Object.values(ID_PREFIXES)), fc.uuid()).map(([prefix, uuid]) => `${prefix}_${uuid.replaceAll("-", "")}`),
    fc.constantFrom(...otherKindIds),
  );

const unknownKey = (known: string[]) =>
  fc
    .oneof(
      fc.constantFrom("__proto__", "constructor", "prototype", "toString", "id", "organization_id", "quantity_sold", "created_at", "NAME", "name ", "' or 1=1 --", "\u0000", "😀", ""),
      nastyText,
    )
    .filter((key) => !known.includes(key));

/** Unusual text that is still a valid name of at most `max` characters. */
const weirdText = (max: number) =>
  fc
    .oneof(
      fc.constantFrom("' or 1=1 --", '"}', "\\", "😀 Konsert 🎉", "\u202eRTL\u202c", "مرحبا", "Robert'); DROP TABLE venues;--", "{{7*7}}", "<b>x</b>", "e\u0301", "\u0080\u0001"),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
    )
    .filter((s) => s.trim().length >= 1 && s.trim().length <= max && !s.includes("\u0000"));

// ---------- Bodies invalid by construction ----------

type Json = Record<string, unknown>;

/** One way a body is broken; kept as data so fast-check can print and shrink it. */
type Breakage =
  | { field: string[]; value: unknown }
  | { fields: Json }
  | { unknownAt: string[]; key: string; value: unknown }
  | { wholeBody: unknown };

function setAt(target: Json, path: string[], value: unknown) {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Json;
  }
  // defineProperty, so a key such as "__proto__" becomes an own property that JSON.stringify writes.
  Object.defineProperty(node, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

function breakBody(valid: Json, breakages: Breakage[]): unknown {
  const whole = breakages.find((b): b is { wholeBody: unknown } => "wholeBody" in b);
  if (whole) return whole.wholeBody;
  const body = structuredClone(valid);
  for (const breakage of breakages) {
    if ("field" in breakage) setAt(body, breakage.field, breakage.value);
    else if ("fields" in breakage) Object.assign(body, breakage.fields);
    else if ("unknownAt" in breakage) setAt(body, [...breakage.unknownAt, breakage.key], breakage.value);
  }
  return body;
}

interface BodyEndpoint {
  name: string;
  method: "POST" | "PATCH";
  path: (w: TenantWorld) => string;
  valid: (w: TenantWorld) => fc.Arbitrary<Json>;
  /** Field path ("address.city") → values that field refuses. */
  invalid: (w: TenantWorld) => Record<string, fc.Arbitrary<unknown>>;
  /** Fields each valid alone but refused together (a window that ends before it starts). */
  invalidTogether?: fc.Arbitrary<Json>;
  /** Object path ("" for the body) → its known keys; any other key is refused. */
  objects: Record<string, string[]>;
  /** Bodies that once got a 2xx or a 5xx here, tried first on every run. */
  regressions: (w: TenantWorld) => Json[];
}

// A timestamp zod accepts whose UTC time lies in year 10000: PostgreSQL's 22009 was a 500.
const YEAR_10000 = "9999-12-31T23:59:59-23:59";
// "€" then an unpaired surrogate: PGlite stored "€" + U+FFFD and dropped the rest (here the NUL that made it invalid).
const CUT_SHORT = "€\udc00\u0000";

function brokenBodies(endpoint: BodyEndpoint, w: TenantWorld): fc.Arbitrary<unknown> {
  const invalid = endpoint.invalid(w);
  const fieldBreakage: fc.Arbitrary<Breakage> = fc
    .constantFrom(...Object.keys(invalid))
    .chain((field) => invalid[field]!.map((value) => ({ field: field.split("."), value })));
  const unknownBreakage: fc.Arbitrary<Breakage> = fc.constantFrom(...Object.keys(endpoint.objects)).chain((at) =>
    fc
      .tuple(unknownKey(endpoint.objects[at]!), fc.oneof(nastyText, notString))
      .map(([key, value]) => ({ unknownAt: at ? at.split(".") : [], key, value })),
  );
  const wholeBreakage: fc.Arbitrary<Breakage> = fc
    .oneof(fc.constant(null), fc.array(nastyText, { maxLength: 3 }), nastyText, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), deepJson)
    .map((wholeBody) => ({ wholeBody }));
  const togetherBreakage: fc.Arbitrary<Breakage>[] = endpoint.invalidTogether ? [endpoint.invalidTogether.map((fields) => ({ fields }))] : [];
  const breakage = fc.oneof(
    { weight: 6, arbitrary: fieldBreakage },
    { weight: 2, arbitrary: unknownBreakage },
    { weight: 1, arbitrary: wholeBreakage },
    ...togetherBreakage.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
  return fc.tuple(endpoint.valid(w), fc.array(breakage, { minLength: 1, maxLength: 3 })).map(([valid, breakages]) => breakBody(valid, breakages));
}

const FUTURE = { starts_at: hoursFromNow(24 * 60), ends_at: hoursFromNow(24 * 60 + 3) };
const SALE = { sale_starts_at: hoursFromNow(-1), sale_ends_at: hoursFromNow(24 * 29) };
// Ends before or when it starts.
const badEventWindow = fc.constantFrom(
  { starts_at: FUTURE.ends_at, ends_at: FUTURE.starts_at },
  { starts_at: FUTURE.starts_at, ends_at: FUTURE.starts_at },
);
const badSaleWindow = fc.constantFrom(
  { sale_starts_at: SALE.sale_ends_at, sale_ends_at: SALE.sale_starts_at },
  { sale_starts_at: SALE.sale_starts_at, sale_ends_at: SALE.sale_starts_at },
);
const venueFields = {
  name: weirdText(200),
  address: fc.record({ street: weirdText(200), city: weirdText(100), postal_code: weirdText(20), country: fc.constantFrom("SE", "NO", "DK", "FI", "DE", "JP") }),
  capacity: fc.integer({ min: 1, max: 1_000_000 }),
};
const venueInvalid = () => ({
  name: badText(200),
  "address.street": badText(200),
  "address.city": badText(100),
  "address.postal_code": badText(20),
  "address.country": badCountry,
  capacity: badInt(1, 1_000_000),
  address: notObject,
});
const VENUE_OBJECTS = { "": ["name", "address", "capacity"], address: ["street", "city", "postal_code", "country"] };

const ticketInvalid = () => ({
  name: badText(200),
  price: badInt(0, 100_000_000),
  currency: fc.oneof(notString, nastyText.filter((s) => s !== "SEK"), fc.constantFrom("sek", "EUR", "NOK", "SEK ", "SEK\ud800")),
  quantity_total: badInt(0, 1_000_000),
  sale_starts_at: badTimestamp,
  sale_ends_at: badTimestamp,
  category: badText(100),
  vat: badPercent,
});
const TICKET_KEYS = ["name", "price", "currency", "quantity_total", "sale_starts_at", "sale_ends_at", "category", "vat"];

const BODY_ENDPOINTS: BodyEndpoint[] = [
  {
    name: "POST /v1/venues",
    method: "POST",
    path: () => "/v1/venues",
    valid: () => fc.record(venueFields),
    invalid: venueInvalid,
    objects: VENUE_OBJECTS,
    regressions: () => [venueBody({ name: CUT_SHORT })],
  },
  {
    name: "PATCH /v1/venues/:id",
    method: "PATCH",
    path: (w) => `/v1/venues/${w.venueId}`,
    valid: () =>
      fc.record(
        { name: venueFields.name, address: fc.record({ city: weirdText(100), country: fc.constantFrom("SE", "NO") }, { requiredKeys: [] }), capacity: venueFields.capacity },
        { requiredKeys: [] },
      ),
    invalid: venueInvalid,
    objects: VENUE_OBJECTS,
    regressions: () => [{ address: { street: "x\udc00" } }],
  },
  {
    name: "POST /v1/events",
    method: "POST",
    path: () => "/v1/events",
    valid: (w) =>
      fc.record(
        { name: weirdText(200), description: weirdText(5000), starts_at: fc.constant(FUTURE.starts_at), ends_at: fc.constant(FUTURE.ends_at), venue_id: fc.constant(w.venueId), status: fc.constantFrom("draft", "published") },
        { requiredKeys: ["name", "starts_at", "ends_at", "venue_id"] },
      ),
    invalid: (w) => ({
      name: badText(200),
      description: fc.oneof(notString, tooLong(5000), withNul, withLoneSurrogate),
      starts_at: badTimestamp,
      ends_at: badTimestamp,
      venue_id: badReference([w.eventId, w.ticketId, w.orderId]),
      // A new event cannot start out cancelled.
      status: fc.oneof(badEnum(["draft", "published"]), fc.constant("cancelled")),
    }),
    invalidTogether: badEventWindow,
    objects: { "": ["name", "description", "starts_at", "ends_at", "venue_id", "status"] },
    regressions: (w) => [eventBody(w.venueId, { ends_at: YEAR_10000 })],
  },
  {
    name: "PATCH /v1/events/:id",
    method: "PATCH",
    path: (w) => `/v1/events/${w.eventId}`,
    valid: () => fc.record({ name: weirdText(200), description: fc.option(weirdText(5000), { nil: null }) }, { requiredKeys: [] }),
    invalid: (w) => ({
      name: badText(200),
      description: fc.oneof(notStringOrNull, tooLong(5000), withNul, withLoneSurrogate),
      // Alone, each is valid but lies on the wrong side of the stored end or start.
      starts_at: fc.oneof(badTimestamp, fc.constant(hoursFromNow(24 * 365 * 5))),
      ends_at: fc.oneof(badTimestamp, fc.constant(hoursFromNow(-24))),
      venue_id: badReference([w.eventId, w.ticketId, w.orderId]),
      status: badEnum(["draft", "published", "cancelled"]),
    }),
    invalidTogether: badEventWindow,
    objects: { "": ["name", "description", "starts_at", "ends_at", "venue_id", "status"] },
    regressions: () => [{ ends_at: YEAR_10000 }],
  },
  {
    name: "POST /v1/events/:id/tickets",
    method: "POST",
    path: (w) => `/v1/events/${w.eventId}/tickets`,
    valid: () =>
      fc.record(
        {
          name: weirdText(200),
          price: fc.integer({ min: 0, max: 100_000_000 }),
          currency: fc.constant("SEK"),
          quantity_total: fc.integer({ min: 0, max: 1_000_000 }),
          sale_starts_at: fc.constant(SALE.sale_starts_at),
          sale_ends_at: fc.constant(SALE.sale_ends_at),
          category: weirdText(100),
          vat: fc.double({ min: 0, max: 100, noNaN: true }),
        },
        { requiredKeys: ["name", "price", "quantity_total", "sale_starts_at", "sale_ends_at"] },
      ),
    invalid: ticketInvalid,
    invalidTogether: badSaleWindow,
    objects: { "": TICKET_KEYS },
    regressions: () => [ticketBody({ sale_ends_at: YEAR_10000 })],
  },
  {
    name: "PATCH /v1/events/:id/tickets/:ticket_id",
    method: "PATCH",
    path: (w) => `/v1/events/${w.eventId}/tickets/${w.ticketId}`,
    valid: () => fc.record({ name: weirdText(200), price: fc.integer({ min: 0, max: 100_000_000 }), category: weirdText(100) }, { requiredKeys: [] }),
    invalid: () => ({
      ...ticketInvalid(),
      // After the stored end of the sale.
      sale_starts_at: fc.oneof(badTimestamp, fc.constant(hoursFromNow(24 * 365))),
    }),
    invalidTogether: badSaleWindow,
    objects: { "": TICKET_KEYS },
    regressions: () => [{ sale_ends_at: YEAR_10000 }],
  },
  {
    name: "POST /v1/orders",
    method: "POST",
    path: () => "/v1/orders",
    valid: (w) =>
      fc.record({
        event_id: fc.constant(w.eventId),
        customer: fc.record({ email: fc.constantFrom("ada@example.test", "o'brien+tag@example.test"), name: weirdText(200) }),
        items: fc.integer({ min: 1, max: 3 }).map((quantity) => [{ ticket_id: w.ticketId, quantity }]),
      }),
    invalid: (w) => ({
      event_id: badReference([w.venueId, w.ticketId, w.orderId]),
      customer: notObject,
      "customer.email": badEmail,
      "customer.name": badText(200),
      "customer.phone_number": badText(50),
      items: fc.oneof(
        notString.filter((v) => !Array.isArray(v)),
        fc.constant([]),
        fc.constant(Array.from({ length: 51 }, (_, i) => ({ ticket_id: `tkt_${i.toString(16).padStart(32, "0")}`, quantity: 1 }))),
        fc.constant([{ ticket_id: w.ticketId, quantity: 1 }, { ticket_id: w.ticketId, quantity: 1 }]),
        badInt(1, 100).map((quantity) => [{ ticket_id: w.ticketId, quantity }]),
        badReference([w.venueId, w.eventId, w.orderId]).map((ticket_id) => [{ ticket_id, quantity: 1 }]),
        fc.array(fc.oneof(nastyText, fc.constant(null), fc.integer()), { minLength: 1, maxLength: 3 }),
      ),
      "items.0.quantity": badInt(1, 100),
      "items.0.ticket_id": badReference([w.venueId, w.eventId, w.orderId]),
      // The organization has no campaigns: every code names nothing.
      campaign_code: fc.oneof(notString, blank, nastyText),
      payment_method: badText(100),
      payment_method_brand: badText(100),
      order_source: badText(100),
    }),
    objects: {
      "": ["event_id", "customer", "items", "campaign_code", "payment_method", "payment_method_brand", "order_source"],
      customer: ["email", "name", "phone_number"],
      "items.0": ["ticket_id", "quantity"],
    },
    regressions: (w) => [{ event_id: w.eventId, customer: { email: "ada@example.test", name: CUT_SHORT }, items: [{ ticket_id: w.ticketId, quantity: 1 }] }],
  },
  {
    name: "POST /v1/orders/:id/refund",
    method: "POST",
    path: (w) => `/v1/orders/${w.orderId}/refund`,
    valid: () => fc.record({ reason: fc.oneof(weirdText(500), blank) }, { requiredKeys: [] }),
    invalid: () => ({ reason: badOptionalText(500) }),
    objects: { "": ["reason"] },
    regressions: () => [{ reason: CUT_SHORT }],
  },
];

/** Every endpoint that takes a body, each with a body it would accept as it is. */
function bodyTargets(w: TenantWorld): { method: string; path: string; credential: string; body: Json }[] {
  return [
    { method: "POST", path: "/v1/venues", credential: w.tenant.apiKey, body: venueBody() },
    { method: "PATCH", path: `/v1/venues/${w.venueId}`, credential: w.tenant.apiKey, body: { name: "Renamed" } },
    { method: "POST", path: "/v1/events", credential: w.tenant.apiKey, body: eventBody(w.venueId) },
    { method: "PATCH", path: `/v1/events/${w.eventId}`, credential: w.tenant.apiKey, body: { name: "Renamed" } },
    { method: "POST", path: `/v1/events/${w.eventId}/tickets`, credential: w.tenant.apiKey, body: ticketBody() },
    { method: "PATCH", path: `/v1/events/${w.eventId}/tickets/${w.ticketId}`, credential: w.tenant.apiKey, body: { name: "Renamed" } },
    {
      method: "POST",
      path: "/v1/orders",
      credential: w.tenant.apiKey,
      body: { event_id: w.eventId, customer: { email: "ada@example.test", name: "Ada" }, items: [{ ticket_id: w.ticketId, quantity: 1 }] },
    },
    { method: "POST", path: `/v1/orders/${w.orderId}/refund`, credential: w.tenant.apiKey, body: { reason: "fuzz" } },
    { method: "POST", path: `/webhooks/deliveries/${w.deliveryId}/redeliver`, credential: w.tenant.userToken, body: {} },
  ];
}

describe("hostile input: never a 5xx, always the error body, nothing changed by invalid input", () => {
  useTestDatabase();
  const server = useTestServer();
  const receivers = useReceivers();
  let world: TenantWorld;

  beforeEach(async () => {
    const hook = await receivers(() => ({ status: 200 }));
    world = await seedTenantWorld(server.url(), hook.url, "fuzz");
  });

  const send = (credential: string, method: string, path: string, text?: string, headers: Record<string, string> = {}) =>
    callApi(server.url(), credential, method, path, { text, headers });

  for (const endpoint of BODY_ENDPOINTS) {
    it(`${endpoint.name}: bodies invalid by construction get 400 and change no row`, async () => {
      const before = await snapshotTables();
      const idempotencyKey = fc.option(
        fc.oneof(fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 40 }), fc.constant("k".repeat(300))),
        { nil: undefined },
      );
      // Common to every endpoint: a JSON null was read as {} (a change applied, an order refunded), and
      // deep nesting with an Idempotency-Key overflowed the stack (500).
      const examples: [unknown, string | undefined][] = [
        [null, undefined],
        [new RawJson("[".repeat(100_000) + "1" + "]".repeat(100_000)), "fuzz-deep-nesting"],
        ...endpoint.regressions(world).map((body): [unknown, undefined] => [body, undefined]),
      ];
      await fc.assert(
        fc.asyncProperty(brokenBodies(endpoint, world), idempotencyKey, async (body, key) => {
          const text = toJsonText(body);
          const result = await send(world.tenant.apiKey, endpoint.method, endpoint.path(world), text, key && endpoint.method === "POST" ? { "Idempotency-Key": key } : {});
          expectErrorContract(result, `${endpoint.name} ${text.slice(0, 200)}`);
          expect(result.status, `${endpoint.name} ${text.slice(0, 200)} → ${result.text.slice(0, 200)}`).toBe(400);
        }),
        { ...RUNS, examples },
      );
      expect(await snapshotTables()).toEqual(before);
    });
  }

  it("GET endpoints: hostile query parameters get 200 or 400, never a 5xx", async () => {
    const before = await snapshotTables();
    const lists: { path: string; params: string[]; credential: string; regressions?: string[] }[] = [
      {
        path: "/analytics_search/api/transactions",
        params: ["size", "from", "sort", "order", "date_from", "date_to", "q", "event_id", "is_refunded"],
        credential: world.tenant.apiKey,
        // Offsets beyond PostgreSQL's ±15:59 reached the database as they were (22009, a 500).
        regressions: [`date_to=${YEAR_10000}`, "date_from=9999-12-31T23:59:59%2B23:59"],
      },
      { path: "/v1/orders", params: ["page", "per_page", "event_id", "status"], credential: world.tenant.apiKey },
      { path: "/v1/events", params: ["page", "per_page", "status", "venue_id"], credential: world.tenant.apiKey },
      { path: "/v1/memberships", params: ["page", "per_page", "status"], credential: world.tenant.apiKey },
      { path: "/v1/venues", params: [], credential: world.tenant.apiKey },
      { path: `/v1/events/${world.eventId}/tickets`, params: [], credential: world.tenant.apiKey },
      { path: `/v1/orders/${world.orderId}`, params: [], credential: world.tenant.apiKey },
      { path: `/v1/venues/${world.venueId}`, params: [], credential: world.tenant.apiKey },
      { path: `/v1/events/${world.eventId}`, params: [], credential: world.tenant.apiKey },
      { path: `/webhooks/deliveries/${world.deliveryId}`, params: [], credential: world.tenant.userToken },
      { path: "/webhooks/deliveries", params: ["page", "per_page", "status", "integration_id"], credential: world.tenant.userToken },
      { path: `/webhooks/deliveries/${world.deliveryId}/attempts`, params: [], credential: world.tenant.userToken },
    ];
    const value = fc.oneof(
      { weight: 4, arbitrary: nastyText },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "1",
          "0",
          "-1",
          "100",
          "1000",
          "1001",
          "2147483647",
          "2147483648",
          "99999999999999999999",
          "1e3",
          "1.5",
          " 1",
          "+1",
          "date",
          "price",
          "customer_name",
          "asc",
          "ASC",
          "true",
          "2026-01-01",
          "2026-02-30",
          "2026-01-01T00:00:00Z",
          "0000-01-01",
          "9999-12-31",
          "9999-12-31T23:59:59-23:59",
          "9999-12-31T23:59:59+23:59",
          "completed",
          "Success",
          world.eventId,
          world.venueId,
          world.integrationId,
          world.customerEmail,
          String(world.orderNumber),
        ),
      },
      { weight: 1, arbitrary: fc.constant("q".repeat(6_000)) },
    );
    // Fragments fetch sends as they are: malformed percent-escapes and odd separators.
    const rawFragment = fc.constantFrom("%", "%FF", "q=%E0%A4%A", "q=%00", "size=%", "from=%ZZ", "=", "&&", "a=b=c", "q=%ED%A0%80", "size=1&size=abc", "page");
    for (const list of lists) {
      const name = fc.oneof(
        { weight: 5, arbitrary: list.params.length ? fc.constantFrom(...list.params) : fc.constant("page") },
        { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "toString", "page[]", "size[0]", "SIZE") },
        { weight: 1, arbitrary: nastyText },
      );
      const query = fc
        .tuple(fc.array(fc.tuple(name, value), { maxLength: 8 }), fc.array(rawFragment, { maxLength: 2 }))
        .map(([pairs, raw]) => [new URLSearchParams(pairs).toString(), ...raw].filter(Boolean).join("&"))
        // Past Node's 16 KiB of request line and headers the request never reaches the app (see the 431 test).
        .filter((q) => q.length <= 12_000);
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          const result = await send(list.credential, "GET", `${list.path}?${q}`);
          expectErrorContract(result, `GET ${list.path}?${q.slice(0, 200)}`);
          expect([200, 400], `GET ${list.path}?${q.slice(0, 200)} → ${result.text.slice(0, 200)}`).toContain(result.status);
        }),
        { ...RUNS, examples: (list.regressions ?? []).map((q): [string] => [q]) },
      );
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("path ids: garbage, malformed percent-encoding, other kinds and unknown ids get 404 on every id route", async () => {
    const before = await snapshotTables();
    const w = world;
    const key = w.tenant.apiKey;
    const token = w.tenant.userToken;
    const routes: { method: string; path: (id: string) => string; kind: IdKind; credential: string; body?: Json }[] = [
      { method: "GET", path: (id) => `/v1/venues/${id}`, kind: "venue", credential: key },
      { method: "PATCH", path: (id) => `/v1/venues/${id}`, kind: "venue", credential: key, body: { name: "Renamed" } },
      { method: "DELETE", path: (id) => `/v1/venues/${id}`, kind: "venue", credential: key },
      { method: "GET", path: (id) => `/v1/events/${id}`, kind: "event", credential: key },
      { method: "PATCH", path: (id) => `/v1/events/${id}`, kind: "event", credential: key, body: { name: "Renamed" } },
      { method: "DELETE", path: (id) => `/v1/events/${id}`, kind: "event", credential: key },
      { method: "GET", path: (id) => `/v1/events/${id}/tickets`, kind: "event", credential: key },
      { method: "POST", path: (id) => `/v1/events/${id}/tickets`, kind: "event", credential: key, body: ticketBody() },
      { method: "PATCH", path: (id) => `/v1/events/${id}/tickets/${w.ticketId}`, kind: "event", credential: key, body: { name: "Renamed" } },
      { method: "PATCH", path: (id) => `/v1/events/${w.eventId}/tickets/${id}`, kind: "ticketType", credential: key, body: { name: "Renamed" } },
      { method: "DELETE", path: (id) => `/v1/events/${w.eventId}/tickets/${id}`, kind: "ticketType", credential: key },
      { method: "GET", path: (id) => `/v1/orders/${id}`, kind: "order", credential: key },
      { method: "POST", path: (id) => `/v1/orders/${id}/refund`, kind: "order", credential: key, body: { reason: "fuzz" } },
      { method: "GET", path: (id) => `/webhooks/deliveries/${id}`, kind: "delivery", credential: token },
      { method: "GET", path: (id) => `/webhooks/deliveries/${id}/attempts`, kind: "delivery", credential: token },
      { method: "POST", path: (id) => `/webhooks/deliveries/${id}/redeliver`, kind: "delivery", credential: token, body: {} },
    ];
    const realIds: Record<string, string> = { venue: w.venueId, event: w.eventId, ticketType: w.ticketId, order: w.orderId, delivery: w.deliveryId };
    const isDotSegment = (segment: string) => /^(?:\.|%2e){1,2}$/i.test(segment);
    const encodeSegment = (text: string) => encodeURIComponent(text.replace(/\p{Cs}/gu, "\ufffd"));
    for (const route of routes) {
      const otherIds = [w.venueId, w.eventId, w.ticketId, w.orderId, w.orderUuid, w.deliveryId, w.membershipId, w.integrationId].filter(
        (id) => id !== realIds[route.kind],
      );
      const id = fc
        .oneof(
          { weight: 3, arbitrary: nastyText.map(encodeSegment) },
          {
            weight: 2,
            arbitrary: fc.constantFrom("%", "%%", "%FF", "%fe%ff", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "abc%", "%zz", "%00", "%2F", "%5C", "%2e%2e%2fetc", "..%2F..%2F"),
          },
          { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...Object.values(ID_PREFIXES)), fc.uuid()).map(([prefix, uuid]) => `${prefix}_${uuid.replaceAll("-", "")}`) },
          { weight: 1, arbitrary: fc.constantFrom(...otherIds) },
          { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 6_000 }).map((n) => "i".repeat(n)) },
        )
        .filter((segment) => segment !== "" && !isDotSegment(segment));
      await fc.assert(
        fc.asyncProperty(id, async (segment) => {
          const path = route.path(segment);
          const result = await send(route.credential, route.method, path, route.body && JSON.stringify(route.body));
          expectApiError(result, 404, "not_found", `${route.method} ${path.slice(0, 200)}`);
        }),
        // Paths Next could not decode were a bare-text 500.
        { numRuns: 30, examples: [["%"], ["%FF"], ["%E0%A4%A"]] },
      );
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("raw bodies: invalid UTF-8 → 400 invalid_json, invalid JSON → 400, another media type → 415, no row changed", async () => {
    const before = await snapshotTables();
    // Each would be accepted as it is: only the bytes or the media type make it wrong.
    const targets = bodyTargets(world);
    // Bytes that never occur in UTF-8.
    const neverUtf8 = fc.constantFrom(0xff, 0xfe, 0xc0, 0xc1, 0xf5, 0xf8);
    const invalidUtf8 = (valid: Buffer) =>
      fc.oneof(
        fc.tuple(neverUtf8, fc.nat({ max: valid.length })).map(([byte, at]) => Buffer.concat([valid.subarray(0, at), Buffer.from([byte]), valid.subarray(at)])),
        fc.tuple(fc.uint8Array({ maxLength: 200 }), neverUtf8).map(([bytes, byte]) => Buffer.concat([Buffer.from(bytes), Buffer.from([byte])])),
      );
    const parses = (text: string) => {
      try {
        JSON.parse(text.replace(/^\ufeff/, ""));
        return true;
      } catch {
        return false;
      }
    };
    const invalidJson = fc
      .oneof(
        fc.constantFrom("{", "}", '{"name":', "{'name': 'x'}", "{name: 1}", "[1,]", '{"a":1}}', '"}', "NaN", "undefined", '{"a":1,}', "\u0001{}", "{} {}", "// c\n{}", "  "),
        nastyText.map((s) => `{${s}`),
        fc.constantFrom(...NASTY),
      )
      .filter((text) => text.length > 0 && !parses(text));
    const otherMediaType = fc.constantFrom("text/plain", "text/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "application/xml", "json", "*/*", "application/vnd.api+xml", "");
    for (const target of targets) {
      const valid = Buffer.from(JSON.stringify(target.body));
      const attempt = fc.oneof(
        invalidUtf8(valid).map((bytes) => ({ bytes, type: "application/json", expect: [400, "invalid_json"] as const })),
        invalidJson.map((text) => ({ bytes: Buffer.from(text), type: "application/json", expect: [400, "invalid_json"] as const })),
        otherMediaType.map((type) => ({ bytes: valid, type, expect: [415, "unsupported_media_type"] as const })),
      );
      await fc.assert(
        fc.asyncProperty(attempt, async ({ bytes, type, expect: [status, code] }) => {
          const headers: Record<string, string> = { Authorization: `Bearer ${target.credential}` };
          if (type) headers["Content-Type"] = type;
          const result = await rawRequest(`${server.url()}${target.path}`, { method: target.method, headers, body: bytes });
          expectApiError(result, status, code, `${target.method} ${target.path} ${type} ${bytes.toString("hex").slice(0, 120)}`);
        }),
        { numRuns: 30 },
      );
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("bodies over 1 MiB get 413 on every body endpoint, declared or chunked; exactly 1 MiB is read", async () => {
    const before = await snapshotTables();
    const targets = bodyTargets(world);
    // Valid JSON padded with whitespace: only the size is wrong.
    const padded = (body: Json, size: number) => {
      const json = Buffer.from(JSON.stringify(body));
      return Buffer.concat([json, Buffer.alloc(size - json.length, 0x20)]);
    };
    for (const target of targets) {
      const url = `${server.url()}${target.path}`;
      const headers = { Authorization: `Bearer ${target.credential}`, "Content-Type": "application/json" };
      const tooBig = padded(target.body, MAX_BODY_BYTES + 1);
      const declared = await rawRequest(url, { method: target.method, headers: { ...headers, "Content-Length": String(tooBig.length) }, body: tooBig });
      expectApiError(declared, 413, "payload_too_large", `${target.method} ${target.path} (Content-Length)`);
      const big = padded(target.body, 3 * MAX_BODY_BYTES);
      const chunks = Array.from({ length: big.length / 65_536 }, (_, i) => big.subarray(i * 65_536, (i + 1) * 65_536));
      const chunked = await rawRequest(url, { method: target.method, headers: { ...headers, "Transfer-Encoding": "chunked" }, chunks });
      expectApiError(chunked, 413, "payload_too_large", `${target.method} ${target.path} (chunked)`);
    }
    expect(await snapshotTables()).toEqual(before);

    const atLimit = await rawRequest(`${server.url()}/v1/venues`, {
      method: "POST",
      headers: { Authorization: `Bearer ${world.tenant.apiKey}`, "Content-Type": "application/json" },
      body: padded(venueBody({ name: "Exactly one MiB" }), MAX_BODY_BYTES),
    });
    expect(atLimit.status, atLimit.text).toBe(201);
    expect(JSON.parse(atLimit.text)).toMatchObject({ name: "Exactly one MiB" });
  });

  it("stores unusual names exactly as sent, refuses unpaired surrogates naming the field, one venue per success", async () => {
    const listVenues = async () => JSON.parse((await send(world.tenant.apiKey, "GET", "/v1/venues")).text).data as unknown[];
    const venuesBefore = (await listVenues()).length;
    const name = fc
      .oneof(
        fc.constantFrom(...NASTY, ...HUGE.map((h) => h.slice(0, 150)), "€\udc00ab", "\u0080\udc00\u0001"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 60 }),
        fc.string({ unit: anyCodeUnit, minLength: 1, maxLength: 60 }),
      )
      .filter((s) => s.trim().length >= 1 && s.trim().length <= 200 && !s.includes("\u0000"));
    let created = 0;
    await fc.assert(
      fc.asyncProperty(name, async (text) => {
        const result = await send(world.tenant.apiKey, "POST", "/v1/venues", JSON.stringify(venueBody({ name: text })));
        if (/\p{Cs}/u.test(text)) {
          expect(expectApiError(result, 400, "validation_failed", JSON.stringify(text)).details?.map((d) => d.path)).toEqual(["name"]);
          return;
        }
        expect(result.status, result.text).toBe(201);
        created += 1;
        const venue = JSON.parse(result.text) as { id: string; name: string };
        expect(venue.name).toBe(text.trim());
        const read = await send(world.tenant.apiKey, "GET", `/v1/venues/${venue.id}`);
        expect(JSON.parse(read.text).name).toBe(text.trim());
      }),
      { numRuns: 40 },
    );
    expect((await listVenues()).length).toBe(venuesBefore + created);
  });

  it("hostile Authorization headers get 401 on every endpoint, and each credential only opens its own family", async () => {
    const before = await snapshotTables();
    const w = world;
    const keyEndpoints: [string, string][] = [
      ["GET", "/analytics_search/api/transactions"],
      ["GET", "/v1/orders"],
      ["POST", "/v1/orders"],
      ["GET", `/v1/orders/${w.orderId}`],
      ["POST", `/v1/orders/${w.orderId}/refund`],
      ["GET", "/v1/venues"],
      ["POST", "/v1/venues"],
      ["PATCH", `/v1/venues/${w.venueId}`],
      ["DELETE", `/v1/venues/${w.venueId}`],
      ["GET", "/v1/events"],
      ["DELETE", `/v1/events/${w.eventId}`],
      ["POST", `/v1/events/${w.eventId}/tickets`],
      ["DELETE", `/v1/events/${w.eventId}/tickets/${w.ticketId}`],
      ["GET", "/v1/memberships"],
    ];
    const dashboardEndpoints: [string, string][] = [
      ["GET", "/webhooks/deliveries"],
      ["GET", `/webhooks/deliveries/${w.deliveryId}`],
      ["GET", `/webhooks/deliveries/${w.deliveryId}/attempts`],
      ["POST", `/webhooks/deliveries/${w.deliveryId}/redeliver`],
    ];
    const latin1 = fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c));
    const mutate = (secret: string) =>
      fc
        .tuple(fc.nat({ max: secret.length - 1 }), fc.constantFrom("A", "b", "0", "_", "-", "."))
        .map(([at, c]) => secret.slice(0, at) + c + secret.slice(at + 1))
        .filter((changed) => changed !== secret);
    const garbage = fc.oneof(
      fc.string({ unit: latin1, maxLength: 200 }),
      fc.string({ unit: latin1, maxLength: 200 }).map((s) => `Bearer ${s}`),
      fc.stringMatching(/^sk_[A-Za-z0-9_-]{20,128}$/).map((s) => `Bearer ${s}`),
      fc.constantFrom("Bearer", "Bearer ", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bearer a.b.c", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", `Bearer sk_${"x".repeat(129)}`, "Token sk_abc"),
      mutate(w.tenant.apiKey).map((s) => `Bearer ${s}`),
      mutate(w.tenant.userToken).map((s) => `Bearer ${s}`),
    );
    const attempt = fc.oneof(
      fc.tuple(fc.constantFrom(...keyEndpoints, ...dashboardEndpoints), garbage),
      // The other family's valid credential: a user token is no API key, an API key no user token.
      fc.constantFrom(...keyEndpoints).map((endpoint) => [endpoint, `Bearer ${w.tenant.userToken}`] as const),
      fc.constantFrom(...dashboardEndpoints).map((endpoint) => [endpoint, `Bearer ${w.tenant.apiKey}`] as const),
    );
    await fc.assert(
      fc.asyncProperty(attempt, async ([[method, path], authorization]) => {
        const result = await readResult(
          await fetch(`${server.url()}${path}`, {
            method,
            headers: { Authorization: authorization, ...(method === "GET" || method === "DELETE" ? {} : { "Content-Type": "application/json" }) },
            body: method === "GET" || method === "DELETE" ? undefined : "{}",
          }),
        );
        expectApiError(result, 401, "unauthorized", `${method} ${path} with ${JSON.stringify(authorization.slice(0, 80))}`);
      }),
      { numRuns: 60 },
    );
    expect(await snapshotTables()).toEqual(before);
  });

  it("leaves request lines beyond Node's header limit to the HTTP layer: 431, never a 5xx", async () => {
    const url = `${server.url()}/analytics_search/api/transactions`;
    const headers = { Authorization: `Bearer ${world.tenant.apiKey}` };
    // A connection of its own: Node answers 431 and closes it.
    const tooLong = await rawRequest(`${url}?q=${"a".repeat(100_000)}`, { method: "GET", headers });
    expect(tooLong.status).toBe(431);
    expect((await rawRequest(`${url}?q=${"a".repeat(201)}`, { method: "GET", headers })).status).toBe(400);
    expect((await rawRequest(`${url}?size=1`, { method: "GET", headers })).status).toBe(200);
  });
});
