import { eq } from "drizzle-orm";
import { db } from "@/db/client";
import { orderItems, orders, organizations } from "@/db/schema";
import { setStockFromOrders } from "@/lib/catalog/ticket-stock";
import { insertCatalog } from "./order-fixtures";
import { reserveOrderNumbers } from "@/lib/orders/order-numbers";

/** A small deterministic PRNG (mulberry32), so a failing random data set can be rebuilt from its seed. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]! };
}

const SOURCES = ["web", "app", "box_office"] as const;
const METHODS = ["card", "swish", "invoice"] as const;
const STATUSES = ["completed", "completed", "completed", "refunded", "cancelled"] as const;

/**
 * Two events with two ticket types each and `count` orders spread at random over [start, start + days),
 * with random channels, payment methods, statuses, prices and one or two items of random quantity.
 * Written in two statements (orders, then items) like createOrder, so the sales triggers see both paths.
 */
export async function insertRandomSales(organizationId: string, options: { seed: number; count: number; start: Date; days: number }) {
  const rng = randomSource(options.seed);
  const catalogs = [
    await insertCatalog(organizationId, { eventName: "Opera night", tickets: [{ name: "Stalls", quantityTotal: 100_000 }, { name: "Balcony", price: 30_000, quantityTotal: 100_000 }] }),
    await insertCatalog(organizationId, { eventName: "Jazz, \"live\"", tickets: [{ name: "Standing", quantityTotal: 100_000 }, { name: "VIP", price: 99_000, quantityTotal: 100_000 }] }),
  ];
  const [org] = await db
    .select({ currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const numbers = await reserveOrderNumbers(db, organizationId, options.count);
  const plans = Array.from({ length: options.count }, (_, index) => {
    const catalog = rng.pick(catalogs);
    const lines = rng.pick(catalog.tickets.length > 1 ? [1, 2] : [1]) === 2 ? catalog.tickets : [rng.pick(catalog.tickets)];
    const items = lines.map((ticket) => ({ ticket: ticket.row, quantity: rng.int(1, 4) }));
    const original = items.reduce((sum, item) => sum + item.ticket.price * item.quantity, 0);
    const status = rng.pick(STATUSES);
    return {
      catalog,
      items,
      row: {
        organizationId,
        eventId: catalog.event.id,
        orderNumber: numbers[index]!,
        status,
        customerEmail: `buyer${index}@example.test`,
        customerName: `Buyer ${index}`,
        paymentMethod: rng.pick(METHODS),
        paymentMethodBrand: "brand",
        orderSource: rng.pick(SOURCES),
        currency: org!.currency,
        totalPrice: original - rng.int(0, 3) * 1_000,
        originalPrice: original,
        refundedAt: status === "refunded" ? new Date() : null,
        createdAt: new Date(options.start.getTime() + Math.floor(rng.next() * options.days * 86_400_000)),
      },
    };
  });
  const rows = await db.insert(orders).values(plans.map((plan) => plan.row)).returning();
  await db.insert(orderItems).values(
    plans.flatMap((plan, index) =>
      plan.items.map((item) => ({
        orderId: rows[index]!.id,
        ticketTypeId: item.ticket.id,
        name: item.ticket.name,
        category: item.ticket.category,
        quantity: item.quantity,
        unitPrice: item.ticket.price,
        vatPercent: item.ticket.vatPercent,
        eventId: plan.catalog.event.id,
        eventName: plan.catalog.event.name,
      })),
    ),
  );
  // Sold counts as checkout keeps them, so refunds can release the tickets again.
  await setStockFromOrders(db, organizationId);
  return { catalogs, rows };
}
