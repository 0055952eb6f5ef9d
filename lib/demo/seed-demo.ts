import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { db, type Queryable, type Transaction } from "@/db/client";
import {
  apiKeys,
  campaigns,
  events,
  memberships,
  orderCampaigns,
  orderItems,
  orders,
  organizations,
  ticketTypes,
  venues,
} from "@/db/schema";
import { createApiKey, demoApiKey } from "@/lib/auth/api-keys";
import { sha256Hex } from "@/lib/auth/secrets";
import { createUser, findUserByEmail } from "@/lib/auth/users";
import {
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  ORDER_SOURCES,
  PAYMENT_METHODS,
  REFUND_REASONS,
  emailLocalPart,
  pick,
  seededRandom,
  swedishMobile,
  weighted,
  type Random,
} from "./customers";

export const DEMO_ORGANIZATION_NAME = "Demo Events AB";
export const DEMO_LOGIN = { email: "admin@demo.test", password: "demo-password" } as const;
export const DEMO_KEY_NAME = "Demo key";
const DEMO_ORDER_COUNT = 2_400;
const REFUND_RATE = 0.08;
const CAMPAIGN_RATE = 0.12;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const SALE_WINDOW_DAYS = 200;

export interface DemoSeedResult {
  organizationId: string;
  login: { email: string; password: string };
  apiKey: string;
  created: boolean;
}

/**
 * Creates the demo organization with a year of sales, or, when it exists, only re-aligns the demo key
 * with the current AUTH_SECRET. Everything is inserted directly: no order goes through createOrder,
 * so no webhook fires for historical demo orders.
 */
export async function seedDemoData(q: Queryable = db): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(q);
  let organizationId = existing;
  if (existing) await ensureDemoKey(existing, q);
  else organizationId = await q.transaction((tx) => createDemoOrganization(tx, new Date()));
  return {
    organizationId: organizationId!,
    login: { ...DEMO_LOGIN },
    apiKey: demoApiKey(),
    created: !existing,
  };
}

/** The demo organization's id, identified by its admin user (e-mail addresses are unique). */
export async function findDemoOrganization(q: Queryable = db): Promise<string | null> {
  const user = await findUserByEmail(DEMO_LOGIN.email, q);
  return user?.organizationId ?? null;
}

/**
 * The demo key is derived from AUTH_SECRET; when the secret changed since seeding, the stored hash is
 * replaced so the key printed at start-up works. A revoked demo key stays revoked.
 */
export async function ensureDemoKey(organizationId: string, q: Queryable = db): Promise<void> {
  const key = demoApiKey();
  const [row] = await q
    .select({ id: apiKeys.id, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.name, DEMO_KEY_NAME)))
    .limit(1);
  if (!row) {
    await createApiKey({ organizationId, name: DEMO_KEY_NAME, scopes: ["*"], rateLimitPerMinute: 600 }, q, key);
  } else if (row.keyHash !== sha256Hex(key)) {
    await q
      .update(apiKeys)
      .set({ keyHash: sha256Hex(key), displayPrefix: key.slice(0, 10) })
      .where(eq(apiKeys.id, row.id));
  }
}

const VENUES = [
  { name: "Sjöbergs Konserthall", street: "Sveavägen 84", city: "Stockholm", postalCode: "113 59", capacity: 1800 },
  { name: "Hamnmagasinet", street: "Packhusplatsen 6", city: "Göteborg", postalCode: "411 13", capacity: 950 },
  { name: "Kulturhuset Norrsken", street: "Bergsgatan 20", city: "Malmö", postalCode: "211 54", capacity: 1200 },
  { name: "Fyrisparkens Scen", street: "Svartbäcksgatan 1", city: "Uppsala", postalCode: "753 20", capacity: 600 },
] as const;

type TicketDef = readonly [name: string, category: string, priceOre: number, quantityTotal: number];

const STANDARD_TICKETS: TicketDef[] = [
  ["Ståplats", "Admission", 34_500, 1_400],
  ["Sittplats", "Seated", 54_500, 700],
  ["VIP", "VIP", 119_500, 90],
];

const EVENTS: {
  name: string;
  description: string;
  venue: number;
  daysFromNow: number;
  hours: number;
  status: "published" | "draft";
  popularity: number;
  tickets: TicketDef[];
}[] = [
  { name: "Jazz på Kajen", description: "En kväll med nordisk jazz vid vattnet.", venue: 1, daysFromNow: -320, hours: 4, status: "published", popularity: 3, tickets: [["Entré", "Admission", 29_500, 900], ["Bord för två", "Seated", 89_000, 60]] },
  { name: "Stand-up: Kvällens skratt", description: "Fem komiker, en kväll.", venue: 0, daysFromNow: -250, hours: 3, status: "published", popularity: 4, tickets: STANDARD_TICKETS },
  { name: "Kammarmusik i skymningen", description: "Stråkkvartetter av Stenhammar och Berwald.", venue: 3, daysFromNow: -180, hours: 2, status: "published", popularity: 2, tickets: [["Ordinarie", "Seated", 32_000, 500], ["Student", "Seated", 16_000, 120]] },
  { name: "Sommarnatt på Slottsbacken", description: "Utomhuskonsert med svenska popartister.", venue: 0, daysFromNow: -110, hours: 5, status: "published", popularity: 5, tickets: STANDARD_TICKETS },
  { name: "Höstrock i Malmö", description: "Rockfestival över två scener.", venue: 2, daysFromNow: -45, hours: 8, status: "published", popularity: 5, tickets: [["Dagsbiljett", "Admission", 69_500, 1_800], ["VIP", "VIP", 149_500, 120]] },
  { name: "Luciakonserten", description: "Traditionell luciakonsert med kör och orkester.", venue: 3, daysFromNow: 12, hours: 2, status: "published", popularity: 3, tickets: [["Vuxen", "Seated", 39_500, 500], ["Barn", "Seated", 19_500, 150]] },
  { name: "Nyårsgalan", description: "Middag, show och fyrverkerier vid tolvslaget.", venue: 0, daysFromNow: 50, hours: 6, status: "published", popularity: 4, tickets: [["Galabiljett", "Seated", 149_500, 600], ["Galabiljett med middag", "Dinner", 249_500, 250]] },
  { name: "Barnteater: Trollskogen", description: "Familjeföreställning för barn från fyra år.", venue: 1, daysFromNow: 110, hours: 2, status: "published", popularity: 2, tickets: [["Vuxen", "Seated", 22_500, 400], ["Barn", "Seated", 12_500, 400]] },
  { name: "Vinterfestivalen", description: "Programmet presenteras snart.", venue: 2, daysFromNow: 160, hours: 10, status: "draft", popularity: 0, tickets: [["Festivalpass", "Admission", 99_500, 2_000]] },
];

const CAMPAIGNS = [
  { name: "Sommarrabatt", code: "SOMMAR50", discountKind: "amount", discountValue: 5_000, active: true },
  { name: "Tidig fågel", code: "EARLYBIRD", discountKind: "amount", discountValue: 10_000, active: true },
  { name: "Studentrabatt", code: "STUDENT10", discountKind: "percent", discountValue: 10, active: true },
  { name: "Medlemsrabatt", code: "MEDLEM20", discountKind: "percent", discountValue: 20, active: true },
  { name: "Julklapp", code: "JUL15", discountKind: "percent", discountValue: 15, active: false },
] as const;

const MEMBERSHIP_PLANS = ["Vän", "Guld", "Student", "Familj"] as const;

interface Customer {
  name: string;
  email: string;
  phone: string | null;
}

function makeCustomers(random: Random, count: number): Customer[] {
  return Array.from({ length: count }, () => {
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    const suffix = random() < 0.5 ? "" : String(10 + Math.floor(random() * 90));
    return {
      name: `${first} ${last}`,
      email: `${emailLocalPart(first, last)}${suffix}@${pick(random, EMAIL_DOMAINS)}`,
      phone: random() < 0.65 ? swedishMobile(random) : null,
    };
  });
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 500) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function createDemoOrganization(tx: Transaction, now: Date): Promise<string> {
  const random = seededRandom(20_260_101);
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

  const [org] = await tx
    .insert(organizations)
    .values({ name: DEMO_ORGANIZATION_NAME, currency: "SEK", createdAt: at(-540 * DAY) })
    .returning({ id: organizations.id });
  const organizationId = org!.id;
  await createUser({ organizationId, email: DEMO_LOGIN.email, password: DEMO_LOGIN.password, name: "Demo Admin" }, tx);
  await ensureDemoKey(organizationId, tx);

  const venueRows = VENUES.map((v) => ({ id: randomUUID(), organizationId, country: "SE", createdAt: at(-530 * DAY), ...v }));
  await tx.insert(venues).values(venueRows);

  const eventRows = EVENTS.map((e) => {
    const startsAt = at(e.daysFromNow * DAY + 19 * HOUR - (now.getTime() % DAY));
    return {
      def: e,
      row: {
        id: randomUUID(),
        organizationId,
        venueId: venueRows[e.venue]!.id,
        name: e.name,
        description: e.description,
        status: e.status,
        startsAt,
        endsAt: new Date(startsAt.getTime() + e.hours * HOUR),
        createdAt: new Date(startsAt.getTime() - (SALE_WINDOW_DAYS + 14) * DAY),
        updatedAt: new Date(startsAt.getTime() - (SALE_WINDOW_DAYS + 14) * DAY),
      },
    };
  });
  await tx.insert(events).values(eventRows.map((e) => e.row));

  const ticketRows = eventRows.flatMap(({ def, row: event }) =>
    def.tickets.map(([name, category, price, quantityTotal]) => ({
      id: randomUUID(),
      organizationId,
      eventId: event.id,
      eventName: event.name,
      name,
      category,
      price,
      currency: "SEK" as const,
      vatPercent: 6,
      quantityTotal,
      quantitySold: 0,
      saleStartsAt: new Date(event.startsAt.getTime() - SALE_WINDOW_DAYS * DAY),
      saleEndsAt: event.startsAt,
      createdAt: event.createdAt,
      updatedAt: event.createdAt,
    })),
  );

  const campaignRows = CAMPAIGNS.map((c) => ({ id: randomUUID(), organizationId, createdAt: at(-400 * DAY), ...c }));
  await tx.insert(campaigns).values(campaignRows);
  const activeCampaigns = campaignRows.filter((c) => c.active);

  const customers = makeCustomers(random, 1_600);

  await tx.insert(memberships).values(
    Array.from({ length: 50 }, () => {
      const customer = pick(random, customers);
      const status = weighted(random, [["active", 60], ["expired", 28], ["cancelled", 12]] as const);
      const startsAt =
        status === "expired" ? at(-(400 + random() * 300) * DAY) : at(-(random() * 330 + 5) * DAY);
      const endsAt = new Date(startsAt.getTime() + 365 * DAY);
      return {
        organizationId,
        customerEmail: customer.email,
        customerName: customer.name,
        plan: pick(random, MEMBERSHIP_PLANS),
        status,
        startsAt,
        endsAt,
        createdAt: startsAt,
      };
    }),
  );

  const published = eventRows.filter((e) => e.def.status === "published");
  const orderRows: (typeof orders.$inferInsert & { id: string; createdAt: Date })[] = [];
  const itemRows: (typeof orderItems.$inferInsert)[] = [];
  const campaignUses: (typeof orderCampaigns.$inferInsert)[] = [];

  while (orderRows.length < DEMO_ORDER_COUNT) {
    const createdAt = at(-random() * 365 * DAY);
    const open = published.filter((e) => {
      const saleStart = e.row.startsAt.getTime() - SALE_WINDOW_DAYS * DAY;
      return saleStart <= createdAt.getTime() && createdAt < e.row.startsAt;
    });
    if (open.length === 0) continue;
    const event = weighted(random, open.map((e) => [e, e.def.popularity] as const)).row;
    const refunded = random() < REFUND_RATE;
    const orderId = randomUUID();

    const eventTickets = ticketRows.filter((t) => t.eventId === event.id);
    const itemCount = Math.min(eventTickets.length, weighted(random, [[1, 70], [2, 24], [3, 6]] as const));
    const chosen = [...eventTickets].sort(() => random() - 0.5).slice(0, itemCount);
    const items = chosen.flatMap((ticket) => {
      const quantity = weighted(random, [[1, 35], [2, 40], [3, 12], [4, 13]] as const);
      // Only completed orders hold seats; a refund released them again.
      if (!refunded && ticket.quantitySold + quantity > ticket.quantityTotal) return [];
      if (!refunded) ticket.quantitySold += quantity;
      return [{ ticket, quantity }];
    });
    if (items.length === 0) continue;

    const originalPrice = items.reduce((sum, { ticket, quantity }) => sum + ticket.price * quantity, 0);
    let discount = 0;
    if (random() < CAMPAIGN_RATE) {
      const campaign = pick(random, activeCampaigns);
      discount =
        campaign.discountKind === "amount"
          ? Math.min(campaign.discountValue, originalPrice)
          : Math.round((originalPrice * campaign.discountValue) / 100);
      campaignUses.push({ orderId, campaignId: campaign.id, name: campaign.name, code: campaign.code, discountAmount: discount });
    }

    const customer = pick(random, customers);
    const payment = weighted(random, PAYMENT_METHODS);
    const refundedAt = refunded
      ? new Date(Math.min(now.getTime(), createdAt.getTime() + (1 + random() * 20) * DAY))
      : null;
    orderRows.push({
      id: orderId,
      organizationId,
      eventId: event.id,
      orderNumber: 0,
      status: refunded ? "refunded" : "completed",
      customerEmail: customer.email,
      customerName: customer.name,
      customerPhone: customer.phone,
      paymentMethod: payment.method,
      paymentMethodBrand: payment.brand,
      orderSource: weighted(random, ORDER_SOURCES),
      currency: "SEK",
      totalPrice: originalPrice - discount,
      originalPrice,
      refundReason: refunded ? pick(random, REFUND_REASONS) : null,
      refundedAt,
      createdAt,
      updatedAt: refundedAt ?? createdAt,
    });
    for (const { ticket, quantity } of items) {
      itemRows.push({
        orderId,
        ticketTypeId: ticket.id,
        name: ticket.name,
        category: ticket.category,
        quantity,
        unitPrice: ticket.price,
        vatPercent: ticket.vatPercent,
        eventId: event.id,
        eventName: event.name,
      });
    }
  }

  // Order numbers follow purchase time, as they would have when the orders were placed.
  orderRows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const [seq] = await tx
    .update(organizations)
    .set({ orderSeq: sql`${organizations.orderSeq} + ${orderRows.length}` })
    .where(eq(organizations.id, organizationId))
    .returning({ orderSeq: organizations.orderSeq });
  const firstNumber = seq!.orderSeq - orderRows.length + 1;
  orderRows.forEach((o, i) => (o.orderNumber = firstNumber + i));

  await tx.insert(ticketTypes).values(ticketRows.map(({ eventName: _eventName, ...t }) => t));
  await insertInChunks(orderRows, (chunk) => tx.insert(orders).values(chunk));
  await insertInChunks(itemRows, (chunk) => tx.insert(orderItems).values(chunk));
  await insertInChunks(campaignUses, (chunk) => tx.insert(orderCampaigns).values(chunk));
  return organizationId;
}
