import { randomUUID } from "node:crypto";
import type { orderCampaigns, orderItems, orders } from "@/db/schema";
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
import { CAMPAIGNS, EVENTS, MEMBERSHIP_PLANS, VENUES } from "./demo-catalog";

/**
 * The demo organization's rows, made up (deterministically, but for ids and the current time) without
 * touching the database: a catalog around `now`, customers, memberships and a year of orders.
 */

const DEMO_ORDER_COUNT = 2_400;
const REFUND_RATE = 0.08;
const CAMPAIGN_RATE = 0.12;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const SALE_WINDOW_DAYS = 200;

export const DEMO_ORGANIZATION_NAME = "Demo Events AB";

export function demoOrganizationRow(now: Date) {
  return { name: DEMO_ORGANIZATION_NAME, currency: "SEK" as const, createdAt: new Date(now.getTime() - 540 * DAY) };
}

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

type OrderRow = typeof orders.$inferInsert & { id: string; createdAt: Date };

/** Every row of the demo organization but the organization itself; orders in purchase order, not yet numbered. */
export function demoRows(organizationId: string, now: Date) {
  const random = seededRandom(20_260_101);
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

  const venueRows = VENUES.map((v) => ({ id: randomUUID(), organizationId, country: "SE", createdAt: at(-530 * DAY), ...v }));

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
  const customers = makeCustomers(random, 1_600);
  const membershipRows = makeMemberships(random, at, organizationId, customers);
  const sales = makeOrders(random, now, {
    organizationId,
    published: eventRows.filter((e) => e.def.status === "published"),
    ticketRows,
    activeCampaigns: campaignRows.filter((c) => c.active),
    customers,
  });
  // Order numbers follow purchase time, as they would have when the orders were placed.
  sales.orderRows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  return {
    venues: venueRows,
    events: eventRows.map((e) => e.row),
    // Sold quantities are known only once the orders are made.
    ticketTypes: ticketRows.map(({ eventName: _eventName, quantitySold: _sold, ...t }) => t),
    campaigns: campaignRows,
    memberships: membershipRows,
    orders: sales.orderRows,
    orderItems: sales.itemRows,
    orderCampaigns: sales.campaignUses,
  };
}

function makeMemberships(random: Random, at: (offsetMs: number) => Date, organizationId: string, customers: Customer[]) {
  return Array.from({ length: 50 }, () => {
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
  });
}

interface SaleContext {
  organizationId: string;
  published: { def: (typeof EVENTS)[number]; row: { id: string; name: string; startsAt: Date } }[];
  ticketRows: { id: string; eventId: string; name: string; category: string; price: number; vatPercent: number; quantityTotal: number; quantitySold: number }[];
  activeCampaigns: { id: string; name: string; code: string; discountKind: "amount" | "percent"; discountValue: number }[];
  customers: Customer[];
}

/** DEMO_ORDER_COUNT orders at random times of the past year, for events on sale then; sells the tickets' quantities. */
function makeOrders(random: Random, now: Date, { organizationId, published, ticketRows, activeCampaigns, customers }: SaleContext) {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  const orderRows: OrderRow[] = [];
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
  return { orderRows, itemRows, campaignUses };
}
