import { beforeEach, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { orderCampaigns, orderItems, orders } from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import type { TransactionsQuery } from "@/lib/orders/order-schemas";
import { loadTransactionOrders } from "@/lib/orders/transaction-order";
import { sortOrderWalk } from "@/lib/orders/transactions-search";
import { expectError, expectStatus } from "../support/catalog";
import { migrationStatement, useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { insertCampaign, insertCatalog, insertOrders, type OrderSeed } from "../support/order-fixtures";
import { useTestServer } from "../support/server";
import { exactCounts, keptCounts } from "../support/trigger-counters";

interface TransactionOrder {
  uuid: string;
  email: string;
  phone_number?: string;
  customer_name: string;
  total_price: number;
  is_refunded: boolean;
  order_number: number;
  created_at: string;
  cart: Record<string, unknown>;
}
interface Envelope {
  data: { total_count: number; orders: TransactionOrder[]; next_cursor?: string };
  trace_id: string;
}

const PATH = "/analytics_search/api/transactions";

type SortKey = TransactionsQuery["sort"];
type SortOrder = TransactionsQuery["order"];
interface SortableOrder {
  id: string;
  createdAt: Date;
  totalPrice: number;
  customerName: string;
}

/** The ids of `rows` in the search's ordering: the sort key (a name case-insensitively), then the uuid. */
function orderedIds(rows: SortableOrder[], sort: SortKey, order: SortOrder): string[] {
  const key = (row: SortableOrder) => (sort === "date" ? row.createdAt.getTime() : sort === "price" ? row.totalPrice : row.customerName.toLowerCase());
  const sign = order === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => (key(a) !== key(b) ? (key(a) < key(b) ? -1 : 1) : a.id < b.id ? -1 : 1) * sign).map((row) => row.id);
}

describe("GET /analytics_search/api/transactions", () => {
  useTestDatabase();
  const server = useTestServer();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let api: ReturnType<typeof apiClient>;

  beforeEach(async () => {
    tenant = await createTenant({ currency: "SEK" });
    api = apiClient(server.url(), tenant.apiKey);
  });

  async function search(query = ""): Promise<Envelope> {
    const response = await api(`${PATH}${query ? `?${query}` : ""}`);
    const body = await expectStatus<Envelope>(response, 200);
    expect(body.trace_id).toBe(response.headers.get("x-trace-id"));
    return body;
  }

  async function seed(seeds: OrderSeed[], options: Parameters<typeof insertCatalog>[1] = {}) {
    const catalog = await insertCatalog(tenant.organization.id, options);
    const rows = await insertOrders(tenant.organization.id, catalog.event, catalog.tickets[0]!.row, seeds);
    return { catalog, rows };
  }

  it("returns the envelope with 2.2 orders, omitting null optional fields", async () => {
    const { catalog, rows } = await seed(
      [
        { createdAt: new Date("2026-03-01T12:00:00.000Z"), customerPhone: "+46701234567", customerName: "Grace Hopper", customerEmail: "grace@example.test" },
        { createdAt: new Date("2026-03-02T12:00:00.000Z"), customerName: "Alan Turing", customerEmail: "alan@example.test" },
      ],
      { eventName: "Opera" },
    );
    const body = await search();
    expect(Object.keys(body).sort()).toEqual(["data", "trace_id"]);
    expect(body.data.total_count).toBe(2);
    const [newest, oldest] = body.data.orders;
    expect(newest).toEqual({
      uuid: rows[1]!.id,
      email: "alan@example.test",
      customer_name: "Alan Turing",
      total_price: 45_000,
      payment_method: "card",
      payment_method_brand: "visa",
      is_refunded: false,
      order_number: rows[1]!.orderNumber,
      order_source: "web",
      created_at: "2026-03-02T12:00:00.000Z",
      cart: {
        organization: toPublicId("organization", tenant.organization.id),
        event: catalog.eventId,
        currency: "SEK",
        total_price: 45_000,
        original_price: 45_000,
        items: [
          {
            product_type: "ticket",
            name: "Ticket 1",
            quantity: 1,
            price: 45_000,
            vat: 6,
            event: catalog.eventId,
            event_name: "Opera",
            category: "Admission",
          },
        ],
        campaigns: [],
      },
    });
    expect(newest).not.toHaveProperty("phone_number");
    expect(newest).not.toHaveProperty("refund_reason");
    expect(oldest).toMatchObject({ uuid: rows[0]!.id, phone_number: "+46701234567" });
  });

  it("writes each order byte for byte: field order, optional fields, timestamps to the millisecond", async () => {
    const { catalog, rows } = await seed(
      [
        { customerPhone: "+46701234567", status: "refunded", createdAt: new Date("2026-03-02T12:00:00.123Z") },
        { createdAt: new Date("2026-03-01T23:59:59.999Z") },
      ],
      { eventName: "Opera" },
    );
    const [refunded, plain] = rows as [(typeof rows)[number], (typeof rows)[number]];
    const campaign = await insertCampaign(tenant.organization.id);
    await db.insert(orderCampaigns).values({ orderId: refunded.id, campaignId: campaign.id, name: "Spring sale", code: "SPRING", discountAmount: 500 });
    await db.update(orderItems).set({ vatPercent: 12.5 }).where(eq(orderItems.orderId, refunded.id));
    // Microseconds, which the API truncates to milliseconds as Date#toISOString does.
    await db.update(orders).set({ refundReason: "Ill", refundedAt: sql`'2026-03-05 08:30:00.999999+00'` }).where(eq(orders.id, refunded.id));
    const cart = (price: number, vat: number, campaigns: unknown[]) => ({
      organization: toPublicId("organization", tenant.organization.id),
      event: catalog.eventId,
      currency: "SEK",
      total_price: price,
      original_price: price,
      items: [{ product_type: "ticket", name: "Ticket 1", quantity: 1, price, vat, event: catalog.eventId, event_name: "Opera", category: "Admission" }],
      campaigns,
    });
    const expected = [
      {
        uuid: refunded.id,
        email: "customer0@example.test",
        phone_number: "+46701234567",
        customer_name: "Customer 0",
        total_price: 45_000,
        payment_method: "card",
        payment_method_brand: "visa",
        is_refunded: true,
        order_number: refunded.orderNumber,
        order_source: "web",
        created_at: "2026-03-02T12:00:00.123Z",
        refund_reason: "Ill",
        refunded_at: "2026-03-05T08:30:00.999Z",
        cart: cart(45_000, 12.5, [{ uuid: campaign.id, name: "Spring sale", code: "SPRING", discount_amount: 500 }]),
      },
      {
        uuid: plain.id,
        email: "customer1@example.test",
        customer_name: "Customer 1",
        total_price: 45_000,
        payment_method: "card",
        payment_method_brand: "visa",
        is_refunded: false,
        order_number: plain.orderNumber,
        order_source: "web",
        created_at: "2026-03-01T23:59:59.999Z",
        cart: cart(45_000, 6, []),
      },
    ];
    const response = await api(PATH);
    expect(await response.text()).toBe(
      JSON.stringify({ data: { total_count: 2, orders: expected }, trace_id: response.headers.get("x-trace-id") }),
    );
    // The webhook payload and the dashboard read the same orders through loadTransactionOrders.
    expect(JSON.stringify(await loadTransactionOrders(db, tenant.organization.id, [plain.id, refunded.id]))).toBe(
      JSON.stringify([expected[1], expected[0]]),
    );
  });

  it("defaults to 100 per page, newest first, and counts every match", async () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    const { rows } = await seed(Array.from({ length: 105 }, (_, i) => ({ createdAt: new Date(start + i * 60_000) })));
    const body = await search();
    expect(body.data.total_count).toBe(105);
    expect(body.data.orders).toHaveLength(100);
    expect(body.data.orders[0]!.uuid).toBe(rows[104]!.id);
    const last = await search("from=100");
    expect(last.data.orders.map((o) => o.uuid)).toEqual(rows.slice(0, 5).reverse().map((r) => r.id));
    const past = await search("from=500&size=1000");
    expect(past.data).toEqual({ total_count: 105, orders: [] });

    // The unfiltered count (kept by trigger) agrees with a counted, filtered one after deletes too.
    await db.delete(orders).where(inArray(orders.id, [rows[0]!.id, rows[50]!.id]));
    expect((await search()).data.total_count).toBe(103);
    expect((await search("date_from=2000-01-01")).data.total_count).toBe(103);
  });

  it("rejects malformed and out-of-range parameters with 400 details instead of clamping", async () => {
    const cases: [string, string[]][] = [
      ["size=0", ["size"]],
      ["size=1001", ["size"]],
      ["size=-5", ["size"]],
      ["size=ten", ["size"]],
      ["size=1.5", ["size"]],
      ["size=", ["size"]],
      ["from=-1", ["from"]],
      ["from=1e3", ["from"]],
      ["sort=bogus", ["sort"]],
      ["sort=DATE", ["sort"]],
      ["order=sideways", ["order"]],
      ["date_from=yesterday", ["date_from"]],
      ["date_to=2026-13-45T00:00:00Z", ["date_to"]],
      ["date_from=2026-02-30", ["date_from"]],
      ["date_to=2026-01-01T10:00:00", ["date_to"]],
      ["is_refunded=maybe", ["is_refunded"]],
      ["event_id=123", ["event_id"]],
      ["q=", ["q"]],
      ["size=0&from=-1&sort=x", ["size", "from", "sort"]],
      ["date_from=2026-02-01T00:00:00Z&date_to=2026-01-31T23:59:59Z", ["date_from"]],
      ["date_from=2026-02-01&date_to=2026-01-31", ["date_from"]],
    ];
    for (const [query, paths] of cases) {
      const body = await expectError(await api(`${PATH}?${query}`), 400, "validation_failed", paths);
      expect(body.details!.every((d) => typeof (d as { message?: unknown }).message === "string"), query).toBe(true);
    }
    // Bounds themselves are valid, as are equal dates and unknown parameters.
    await search("size=1&from=0");
    await search("size=1000&sort=price&order=asc");
    await search("date_from=2026-01-01T00:00:00Z&date_to=2026-01-01T00:00:00Z&whatever=1");
    await search("date_from=2026-01-01T10:00:00%2B02:00&date_to=2026-01-01");
  });

  it("pages through a full result set with ties exactly once for every sort and order", async () => {
    const sameTime = new Date("2026-05-01T10:00:00Z");
    const seeds: OrderSeed[] = Array.from({ length: 23 }, (_, i) => ({
      // Three-way ties on every sort key: a few distinct times, prices and names.
      createdAt: i % 3 === 0 ? sameTime : new Date(sameTime.getTime() + (i % 4) * 1000),
      totalPrice: [1_000, 2_000, 2_000, 5_000][i % 4],
      customerName: ["anna", "Anna", "Bo", "carl"][i % 4],
    }));
    const { rows } = await seed(seeds);
    const byId = new Map(rows.map((r) => [r.id, r]));

    for (const sort of ["date", "price", "customer_name"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const seen: string[] = [];
        for (let from = 0; from < 23; from += 4) {
          const page = await search(`sort=${sort}&order=${order}&size=4&from=${from}`);
          expect(page.data.total_count).toBe(23);
          seen.push(...page.data.orders.map((o) => o.uuid));
        }
        expect(seen, `${sort} ${order}`).toHaveLength(23);
        expect(new Set(seen).size, `${sort} ${order}`).toBe(23);
        // The walk equals one big page, which is ordered by the key then the uuid.
        const whole = (await search(`sort=${sort}&order=${order}&size=1000`)).data.orders.map((o) => o.uuid);
        expect(seen).toEqual(whole);
        expect(whole, `${sort} ${order}`).toEqual(orderedIds(whole.map((id) => byId.get(id)!), sort, order));
      }
    }
  });

  it("filters by inclusive date bounds, q, event and refund state, with exact counts", async () => {
    const { rows, catalog } = await seed([
      { createdAt: new Date("2026-01-01T00:00:00.000Z"), customerEmail: "Ada@Example.test", customerName: "Ada Lovelace" },
      { createdAt: new Date("2026-01-15T12:30:00.000Z"), customerName: "Grace Hopper", customerPhone: "+46 70 555 1234" },
      { createdAt: new Date("2026-01-31T23:59:59.999Z"), customerName: "Alan Turing", status: "refunded" },
      { createdAt: new Date("2026-02-01T00:00:00.000Z"), customerName: "Edsger Dijkstra" },
    ]);
    const second = await seed([{ createdAt: new Date("2026-01-10T00:00:00.000Z"), customerName: "Barbara Liskov" }]);
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [
      { customerName: "Ada Lovelace", createdAt: new Date("2026-01-05T00:00:00Z") },
    ]);

    const ids = async (query: string) => {
      const body = await search(query);
      expect(body.data.total_count).toBe(body.data.orders.length);
      return body.data.orders.map((o) => o.uuid).sort();
    };
    const id = (i: number) => rows[i]!.id;
    const sorted = (...values: string[]) => [...values].sort();

    expect(await ids("")).toEqual(sorted(id(0), id(1), id(2), id(3), second.rows[0]!.id));
    expect(await ids("date_from=2026-01-01T00:00:00Z&date_to=2026-01-31T23:59:59.999Z")).toEqual(
      sorted(id(0), id(1), id(2), second.rows[0]!.id),
    );
    expect(await ids("date_from=2026-01-15T12:30:00Z&date_to=2026-01-15T12:30:00Z")).toEqual([id(1)]);
    // A bare date covers its whole UTC day; offsets are honoured.
    expect(await ids("date_from=2026-01-31&date_to=2026-01-31")).toEqual([id(2)]);
    expect(await ids("date_to=2026-01-01T01:00:00%2B01:00")).toEqual([id(0)]);
    expect(await ids("date_from=2026-02-01T00:00:00.001Z")).toEqual([]);

    expect(await ids("q=ada%40EXAMPLE")).toEqual([id(0)]);
    expect(await ids("q=hopper")).toEqual([id(1)]);
    expect(await ids("q=555%201234")).toEqual([id(1)]);
    expect(await ids("q=%25")).toEqual([]);
    // Digits match the exact order number or a phone/e-mail substring: order 4, and the phone "...1234".
    expect(rows[3]!.orderNumber).toBe(4);
    expect(await ids("q=4")).toEqual(sorted(id(1), id(3)));
    expect(await ids("q=3")).toEqual(sorted(id(1), id(2), id(3))); // + e-mail customer3@
    expect(await ids("q=99999999999")).toEqual([]);

    expect(await ids(`event_id=${second.catalog.eventId}`)).toEqual([second.rows[0]!.id]);
    expect(await ids(`event_id=${theirs.eventId}`)).toEqual([]);
    expect(await ids(`event_id=${catalog.eventId}&is_refunded=true`)).toEqual([id(2)]);
    expect(await ids("is_refunded=false&date_to=2026-01-31")).toEqual(sorted(id(0), id(1), second.rows[0]!.id));

    const refunded = await search("is_refunded=true");
    expect(refunded.data.orders[0]).toMatchObject({ is_refunded: true });
  });

  it("finds q in names through the organization's distinct names, kept as orders are written, each match once", async () => {
    const { rows } = await seed([
      { customerName: "Gustav Wikström", customerEmail: "gustav.wikstrom1@example.test", customerPhone: "+46 70 002 9999" },
      { customerName: "Anna Berg", customerEmail: "anna.berg@example.test" },
      { customerName: "Anna Bergström", customerEmail: "ab@example.test" },
      { customerName: "Per Holm", customerEmail: "per@example.test" },
    ]);
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{ customerName: "Bo Wikström" }]);
    const id = (i: number) => rows[i]!.id;
    const found = async (query: string) => {
      const body = await search(query);
      expect(body.data.total_count).toBe(body.data.orders.length);
      return body.data.orders.map((o) => o.uuid).sort();
    };
    const sorted = (...values: string[]) => [...values].sort();

    expect(await found("q=WIKSTRÖM")).toEqual([id(0)]);
    // Name and e-mail both match "berg" for order 1: one match, counted once.
    expect(await found("q=berg")).toEqual(sorted(id(1), id(2)));
    expect(await found("q=na%20berg&sort=customer_name")).toEqual(sorted(id(1), id(2)));
    // "002" is order number 2 and a fragment of order 0's phone.
    expect(rows[1]!.orderNumber).toBe(2);
    expect(await found("q=002")).toEqual(sorted(id(0), id(1)));
    // With a space (a full name, a spaced phone) e-mails are left out, which no address can match anyway.
    expect(await found("q=gustav%20wik")).toEqual([id(0)]);
    expect(await found("q=70%20002")).toEqual([id(0)]);
    const refused = await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [
      { customerEmail: "bo wikstrom@example.test" },
    ]).catch((error: Error) => error);
    expect(String((refused as Error).cause)).toMatch(/orders_customer_email_no_space/);

    // A renamed customer is found by the new name (and the old name finds nothing any more).
    await db.update(orders).set({ customerName: "Per Lindqvist" }).where(inArray(orders.id, [id(3)]));
    expect(await found("q=lindqvist")).toEqual([id(3)]);
    expect(await found("q=holm")).toEqual([]);
  });

  it("finds q in e-mails through their local parts' words or, in a domain's word, by trigrams; kept as orders are written, changed and deleted, each match once", async () => {
    const { rows } = await seed([
      { customerName: "Karin Ek", customerEmail: "karin.wallin77@example.test" },
      { customerName: "Sara Wallin", customerEmail: "sara.karlsson12@mail.test" },
      { customerName: "Per Holm", customerEmail: "p-holm+tix@Wallin-Data.SE" },
      { customerName: "Eva Lund", customerEmail: "eva@stugan.test" },
      { customerName: "Ola Berg", customerEmail: "ola.gmail@GMAIL.com" },
    ]);
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    const [theirOrder] = await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [
      { customerName: "Bo Ek", customerEmail: "bo.wallin77@example.test" },
    ]);
    const id = (i: number) => rows[i]!.id;
    const sorted = (...values: string[]) => [...values].sort();
    const found = async (query: string) => {
      const body = await search(query);
      expect(body.data.total_count).toBe(body.data.orders.length);
      return body.data.orders.map((o) => o.uuid).sort();
    };
    const wordsOf = async (orderId: string) =>
      rowsOf<{ word: string }>(
        await db.execute(
          sql`select w.word from order_email_word_orders m join order_email_words w on w.id = m.word_id
              where m.order_id = ${orderId} and w.organization_id = ${tenant.organization.id} order by w.word`,
        ),
      ).map((row) => row.word);
    const domainWords = async (organizationId: string) =>
      rowsOf<{ word: string }>(
        await db.execute(sql`select word from order_email_domain_words where organization_id = ${organizationId} order by word`),
      ).map((row) => row.word);

    // Lower-cased words between the separators: each order under the words of its local part only, those of
    // the domains kept apart, each once.
    expect(await wordsOf(id(2))).toEqual(["holm", "p", "tix"]);
    expect(await wordsOf(id(4))).toEqual(["gmail", "ola"]);
    expect(await domainWords(tenant.organization.id)).toEqual(["com", "data", "example", "gmail", "mail", "se", "stugan", "test", "wallin"]);
    // By the words: an e-mail-only match (0), a name and e-mail match counted once (2, 0); not the other
    // organization's order, whose local part has the same word.
    expect(await found("q=in77")).toEqual([id(0)]);
    expect(await found("q=HOLM")).toEqual([id(2)]);
    expect(await found("q=arin")).toEqual([id(0)]);
    // In a domain's word, by trigrams, as exact: `wallin` is also a local part's word (0, 1, the name of 1) and
    // `gmail` both of one address (4), each order once; domain words in capitals; not the other organization's.
    expect(await found("q=wallin")).toEqual(sorted(id(0), id(1), id(2)));
    expect(await found("q=WaLLiN")).toEqual(sorted(id(0), id(1), id(2)));
    expect(await found("q=GMAIL")).toEqual([id(4)]);
    expect(await found("q=COM")).toEqual([id(4)]);
    expect(await found("q=EXAMPLE")).toEqual([id(0)]);
    expect(await found("q=test")).toEqual(sorted(id(0), id(1), id(3)));
    // Fragments with a separator match across words, as substrings of the whole address.
    expect(await found("q=n.wal")).toEqual([id(0)]);
    expect(await found("q=holm%2Btix%40wal")).toEqual([id(2)]);
    // A page after a cursor counts the matches apart (the union of ids): the same exact total, by either path.
    expect(await found("q=kar")).toEqual(sorted(id(0), id(1)));
    for (const [fragment, total] of [["wallin", 3], ["kar", 2]] as const) {
      const first = await search(`q=${fragment}&size=1`);
      expect(first.data.total_count).toBe(total);
      const next = await search(`q=${fragment}&size=1&cursor=${encodeURIComponent(first.data.next_cursor!)}`);
      expect(next.data.total_count).toBe(total);
    }

    // The words' rows carry the order's name, which leaves out the name's own matches: kept through renames, alone
    // or with the e-mail in one statement (either trigger may run first), so an order is found once, by either.
    const rename = (customerName: string, customerEmail?: string) =>
      db.update(orders).set({ customerName, ...(customerEmail && { customerEmail }) }).where(eq(orders.id, id(1)));
    const namesOf = async (orderId: string) =>
      rowsOf<{ name: string }>(
        await db.execute(sql`select distinct lower_customer_name as name from order_email_word_orders where order_id = ${orderId}`),
      ).map((row) => row.name);
    expect(await namesOf(id(1))).toEqual(["sara wallin"]);
    await rename("Sara Karlsson");
    expect(await namesOf(id(1))).toEqual(["sara karlsson"]);
    expect(await found("q=karlsson")).toEqual([id(1)]);
    await rename("Sara Holm");
    expect(await found("q=karlsson")).toEqual([id(1)]);
    await rename("Sara Karlsson", "sara.k@mail.test");
    expect(await found("q=karlsson")).toEqual([id(1)]);
    await rename("Sara Lund", "sara.karlsson12@mail.test");
    expect(await namesOf(id(1))).toEqual(["sara lund"]);
    expect(await found("q=karlsson")).toEqual([id(1)]);
    await rename("Sara Wallin");

    // A changed e-mail moves the order to the new address's words; the old domain's word stays and finds nothing.
    await db.update(orders).set({ customerEmail: "eva.wallin@x.test" }).where(eq(orders.id, id(3)));
    expect(await wordsOf(id(3))).toEqual(["eva", "wallin"]);
    expect(await domainWords(tenant.organization.id)).toContain("x");
    expect(await found("q=stugan")).toEqual([]);
    expect(await found("q=wallin")).toEqual(sorted(id(0), id(1), id(2), id(3)));

    // A deleted order takes its words' rows with it.
    await db.delete(orders).where(eq(orders.id, id(0)));
    expect(await wordsOf(id(0))).toEqual([]);
    expect(await found("q=wallin")).toEqual(sorted(id(1), id(2), id(3)));
    expect(await found("q=in77")).toEqual([]);

    // An organization's words, which go with it (as may its orders, in either order), take their rows too.
    const orphans = async () =>
      rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from order_email_word_orders m
              where m.order_id = ${theirOrder!.id} or not exists (select from order_email_words w where w.id = m.word_id)`,
        ),
      )[0]!.n;
    expect(await orphans()).toBe(2);
    await db.execute(sql`delete from order_email_words where organization_id = ${stranger.organization.id}`);
    expect(await orphans()).toBe(0);
  });

  it("finds q with a separator under the words of one of its runs, tested on the address their rows copy: every such fragment as a substring test finds it", async () => {
    // Words repeated in one address (3), at either end of a local part, separators that are LIKE wildcards (`_`) or
    // not ASCII (`ö`), doubled (`..`), a local part's word that is also a domain's (`lindberg`), a name with a
    // separator (7), and a phone.
    const seeds: OrderSeed[] = [
      { customerName: "Anna Ek", customerEmail: "anna.lindberg12@gmail.test" },
      { customerName: "Hanna Berg", customerEmail: "hanna.berg@live.test", customerPhone: "+46 70-111 22 33" },
      { customerName: "Ida Holm", customerEmail: "ida.anna@x.test" },
      { customerName: "Per Åberg", customerEmail: "anna.anna-per@x.test" },
      { customerName: "Ola Smith", customerEmail: "o_la+tix@Ticket.SE" },
      { customerName: "Sara Björk", customerEmail: "björk..sara@x.test" },
      { customerName: "Eva Lund", customerEmail: "eva@lindberg.test" },
      { customerName: "Anna-Lena Ek", customerEmail: "al@x.test" },
    ];
    const { rows, catalog } = await seed(seeds);
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{ customerName: "Anna Ek", customerEmail: "anna.lindberg12@gmail.test" }]);

    const addressesOf = async () =>
      rowsOf<{ order_id: string; address: string }>(
        await db.execute(sql`select distinct order_id, lower_customer_email as address from order_email_word_orders order by 1, 2`),
      );
    const expectFragments = async () => {
      const current = await db.select().from(orders).where(eq(orders.organizationId, tenant.organization.id));
      const fragments = new Set(
        current.flatMap(({ customerEmail }) =>
          [...customerEmail.toLowerCase()].flatMap((_, start, chars) =>
            [3, 4, 5, 6].map((length) => chars.slice(start, start + length).join("")).filter((f) => [...f].length >= 3 && /[^a-z0-9]/.test(f)),
          ),
        ),
      );
      expect(fragments.size).toBeGreaterThan(150);
      for (const fragment of fragments) {
        const expected = current
          .filter((row) => [row.customerEmail, row.customerName, row.customerPhone ?? ""].some((value) => value.toLowerCase().includes(fragment)))
          .map((row) => row.id)
          .sort();
        const body = await search(`q=${encodeURIComponent(fragment)}&size=100`);
        expect(body.data.total_count, fragment).toBe(expected.length);
        expect(body.data.orders.map((o) => o.uuid).sort(), fragment).toEqual(expected);
      }
    };
    await expectFragments();
    // The same matches with a filter that reads their orders, and page by page after a cursor, which counts apart.
    for (const fragment of ["anna.", "a.an", "rk..s", "a-per"]) {
      const all = (await search(`q=${encodeURIComponent(fragment)}&size=100`)).data;
      const filtered = (await search(`q=${encodeURIComponent(fragment)}&size=100&event_id=${catalog.eventId}`)).data;
      expect(all.total_count, fragment).toBeGreaterThan(0);
      expect(filtered.orders.map((o) => o.uuid).sort(), fragment).toEqual(all.orders.map((o) => o.uuid).sort());
      expect(filtered.total_count, fragment).toBe(all.total_count);
    }
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const body = await search(`q=anna.&size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(body.data.total_count).toBe(3);
      walked.push(...body.data.orders.map((o) => o.uuid));
      cursor = body.data.next_cursor;
    } while (cursor);
    expect(walked.sort()).toEqual([rows[0]!.id, rows[1]!.id, rows[3]!.id].sort());
    // The rows copy the lower-cased address, and move with the order to a new one.
    await db.update(orders).set({ customerEmail: "Anna.Holm@x.test" }).where(eq(orders.id, rows[2]!.id));
    expect((await addressesOf()).filter((row) => row.order_id === rows[2]!.id)).toEqual([
      { order_id: rows[2]!.id, address: "anna.holm@x.test" },
    ]);
    await expectFragments();

    // Migration 0051's backfill gives what the triggers keep.
    const byTriggers = await addressesOf();
    await db.execute(sql`update order_email_word_orders set lower_customer_email = ''`);
    await db.execute(sql.raw(migrationStatement(`UPDATE "order_email_word_orders" m SET "lower_customer_email"`)));
    expect(await addressesOf()).toEqual(byTriggers);
  });

  it("sorts, pages and date-filters e-mail matches by the sort keys their words' rows copy, kept when an order's keys change", async () => {
    const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 4, day, hour));
    // E-mail-only matches of `wal` (the names do not contain it), with ties on every key; one address with two
    // matching words (3); one name match (6), read from the names instead; one order matching nothing (7).
    const { rows, catalog } = await seed([
      { customerName: "Ann Berg", customerEmail: "ann.wal1@x.test", createdAt: at(2), totalPrice: 3_000 },
      { customerName: "Bo Ek", customerEmail: "bo.wal2@x.test", createdAt: at(2), totalPrice: 1_000 },
      { customerName: "ann berg", customerEmail: "ann.wal3@x.test", createdAt: at(5), totalPrice: 3_000 },
      { customerName: "Cia Ny", customerEmail: "wal.wallin@x.test", createdAt: at(9), totalPrice: 2_000 },
      { customerName: "Dan Holm", customerEmail: "dan.wal5@x.test", createdAt: at(9), totalPrice: 2_000 },
      { customerName: "Eva Lund", customerEmail: "eva.wal6@x.test", createdAt: at(14), totalPrice: 500 },
      { customerName: "Sara Walden", customerEmail: "sara@x.test", createdAt: at(5), totalPrice: 4_000 },
      { customerName: "Olle Ek", customerEmail: "olle@x.test", createdAt: at(6), totalPrice: 100 },
    ]);
    const matching = rows.slice(0, 7);
    const ordered = (sort: SortKey, order: SortOrder, of: SortableOrder[] = matching) => orderedIds(of, sort, order);
    const pageIds = async (query: string, total: number) => {
      const body = await search(query);
      expect(body.data.total_count, query).toBe(total);
      return body.data.orders.map((o) => o.uuid);
    };
    const walk = async (query: string, total: number) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const body = await search(`${query}&size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(body.data.total_count, query).toBe(total);
        seen.push(...body.data.orders.map((o) => o.uuid));
        cursor = body.data.next_cursor;
      } while (cursor);
      return seen;
    };
    const inMay = (from: number, to: number) => matching.filter((row) => row.createdAt >= at(from, 0) && row.createdAt < at(to + 1, 0));

    for (const sort of ["date", "price", "customer_name"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const query = `q=wal&sort=${sort}&order=${order}`;
        const expected = ordered(sort, order);
        expect(await pageIds(query, 7), query).toEqual(expected);
        expect(await walk(query, 7), query).toEqual(expected);
        // The same by the orders' rows (an event filter reads them): both paths agree.
        expect(await pageIds(`${query}&event_id=${catalog.eventId}`, 7), query).toEqual(expected);
        const dated = ordered(sort, order, inMay(3, 9));
        expect(await pageIds(`${query}&date_from=2026-05-03&date_to=2026-05-09`, dated.length), query).toEqual(dated);
        expect(await walk(`${query}&date_from=2026-05-03&date_to=2026-05-09`, dated.length), query).toEqual(dated);
      }
    }

    // An order's new price or name reach its words' rows (created_at cannot change), also with its e-mail changed in
    // the same statement (either trigger may run first); refunds touch neither.
    const keysOf = async (orderId: string) =>
      rowsOf<{ created_at: string; total_price: number; lower_customer_name: string }>(
        await db.execute(
          sql`select distinct to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at, total_price,
              lower_customer_name from order_email_word_orders where order_id = ${orderId}`,
        ),
      );
    expect(await keysOf(rows[1]!.id)).toEqual([{ created_at: "2026-05-02T12:00:00Z", total_price: 1_000, lower_customer_name: "bo ek" }]);
    await db.update(orders).set({ totalPrice: 9_000, originalPrice: 9_000 }).where(eq(orders.id, rows[1]!.id));
    expect(await keysOf(rows[1]!.id)).toEqual([{ created_at: "2026-05-02T12:00:00Z", total_price: 9_000, lower_customer_name: "bo ek" }]);
    await db
      .update(orders)
      .set({ totalPrice: 50, customerName: "Bo Åkesson", customerEmail: "bo.wal.two@x.test" })
      .where(eq(orders.id, rows[1]!.id));
    expect(await keysOf(rows[1]!.id)).toEqual([{ created_at: "2026-05-02T12:00:00Z", total_price: 50, lower_customer_name: "bo åkesson" }]);
    await db.update(orders).set({ totalPrice: 7_000, originalPrice: 7_000, customerName: "Dan Lind" }).where(eq(orders.id, rows[4]!.id));
    await db.update(orders).set({ status: "refunded", refundedAt: at(21) }).where(eq(orders.id, rows[4]!.id));
    expect(await keysOf(rows[4]!.id)).toEqual([{ created_at: "2026-05-09T12:00:00Z", total_price: 7_000, lower_customer_name: "dan lind" }]);
    const changed = await db.select().from(orders).where(inArray(orders.id, matching.map((row) => row.id)));
    for (const sort of ["price", "customer_name"] as const) {
      for (const order of ["asc", "desc"] as const) {
        expect(await pageIds(`q=wal&sort=${sort}&order=${order}`, 7), sort).toEqual(ordered(sort, order, changed));
      }
    }
  });

  it("counts a fragment in most names from the names' kept counts and walks the sort order for its page, or reads the ranges when the walk finds too few", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 0, minute));
    const surnames = ["Lundberg", "Sjöberg", "Berg", "Bergqvist", "Åberg"];
    const spelled = (surname: string) => surname.toLowerCase().replace("ö", "o").replace("å", "a");
    // 150 name matches of `berg` (Sjöberg and Åberg spelled without their letters in the addresses), then the 50
    // newest orders: 10 e-mail-only matches and 40 matching nothing.
    const seeds: OrderSeed[] = Array.from({ length: 200 }, (_, i) => {
      const first = ["Anna", "Erik", "Olle", "Karin"][i % 4]!;
      const common = { createdAt: at(i), totalPrice: 100 + ((i * 37) % 200) };
      if (i < 150) {
        const surname = surnames[i % surnames.length]!;
        return { ...common, customerName: `${first} ${surname}`, customerEmail: `${first.toLowerCase()}.${spelled(surname)}${i}@x.test` };
      }
      if (i < 160) return { ...common, customerName: `${first} Ek`, customerEmail: `${first.toLowerCase()}.bergman${i}@x.test` };
      return { ...common, customerName: `${first} Holm`, customerEmail: `${first.toLowerCase()}.holm${i}@x.test` };
    });
    const { rows } = await seed(seeds);
    // Five to a page: the walk takes at most 32 orders of the sort order. In date order, descending, those are the 50
    // without a name match: that walk finds none and the page comes from the ranges.
    expect(sortOrderWalk({ nameMatches: 150, orders: 200, window: 6 })).toEqual({ cap: 32 });
    expect(sortOrderWalk({ nameMatches: 150, orders: 200, window: 11 })).toBeUndefined();

    const expectPages = async (step: string) => {
      const current = await db.select().from(orders).where(eq(orders.organizationId, tenant.organization.id));
      const matches = current.filter((row) => `${row.customerName.toLowerCase()} ${row.customerEmail.toLowerCase()}`.includes("berg"));
      for (const sort of ["date", "price", "customer_name"] as const) {
        for (const order of ["asc", "desc"] as const) {
          const query = `q=berg&sort=${sort}&order=${order}&size=5`;
          const body = await search(query);
          expect(body.data.total_count, `${step} ${query}`).toBe(matches.length);
          expect(body.data.orders.map((o) => o.uuid), `${step} ${query}`).toEqual(orderedIds(matches, sort, order).slice(0, 5));
        }
      }
      expect(await keptCounts("order_customer_names"), step).toEqual(await exactCounts("order_customer_names"));
    };
    await expectPages("as written");

    // Renamed out of the names' matches, an order stays an e-mail match (its address's words now have letters the
    // name lacks); renamed into them, it moves to the names' count; deleted, it leaves both.
    await db.update(orders).set({ customerName: "Anna Ek" }).where(eq(orders.id, rows[0]!.id));
    await db.update(orders).set({ customerName: "Per Lindberg" }).where(eq(orders.id, rows[199]!.id));
    await db.delete(orders).where(inArray(orders.id, [rows[1]!.id, rows[2]!.id, rows[155]!.id]));
    await expectPages("after renames and deletes");

    // Migration 0048's backfills give what the triggers keep.
    const flags = async () =>
      rowsOf<Record<string, unknown>>(
        await db.execute(
          sql`select m.word_id, m.order_id, m.letters_in_name, w.unnamed_orders from order_email_word_orders m
              join order_email_words w on w.id = m.word_id order by 1, 2`,
        ),
      );
    const byTriggers = { flags: await flags(), names: await keptCounts("order_customer_names") };
    expect(byTriggers.flags.filter((row) => !row.letters_in_name).length).toBeGreaterThan(10);
    await db.execute(sql`update order_email_word_orders set letters_in_name = false`);
    await db.execute(sql`update order_email_words set unnamed_orders = false`);
    await db.execute(sql.raw(migrationStatement(`UPDATE "order_email_word_orders" m SET "letters_in_name" = true`)));
    await db.execute(sql.raw(migrationStatement(`UPDATE "order_email_words" w SET "unnamed_orders" = true`)));
    await db.execute(sql`delete from order_customer_names`);
    await db.execute(sql.raw(migrationStatement(`INSERT INTO "order_customer_names"`)));
    expect({ flags: await flags(), names: await keptCounts("order_customer_names") }).toEqual(byTriggers);
  });

  it("sees only the key's organization and checks the scope", async () => {
    const stranger = await createTenant();
    const theirs = await insertCatalog(stranger.organization.id);
    await insertOrders(stranger.organization.id, theirs.event, theirs.tickets[0]!.row, [{}, {}]);
    expect((await search()).data).toEqual({ total_count: 0, orders: [] });

    const noRead = await createTenant({ scopes: ["orders:write", "events:read"] });
    const forbidden = await expectError(await apiClient(server.url(), noRead.apiKey)(PATH), 403, "forbidden");
    expect(forbidden.error).toBe("Insufficient permissions. Required scope: orders:read");
    await expectError(await fetch(`${server.url()}${PATH}`), 401, "unauthorized");

    const readOnly = await createTenant({ scopes: ["orders:read"] });
    const body = await expectStatus<Envelope>(await apiClient(server.url(), readOnly.apiKey)(PATH), 200);
    expect(body.data.total_count).toBe(0);
  });
});
