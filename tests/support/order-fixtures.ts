import { eq, sql } from "drizzle-orm";
import { db } from "@/db/client";
import {
  campaigns,
  events,
  orderItems,
  orders,
  organizations,
  ticketTypes,
  venues,
  type EventStatus,
  type OrderStatus,
} from "@/db/schema";
import { toPublicId } from "@/lib/ids";
import { reserveOrderNumbers } from "@/lib/orders/order-numbers";

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR);

/** quantitySold: tickets already sold when the test starts (taken from the stock as checkout would). */
type TicketInput = Partial<typeof ticketTypes.$inferInsert> & { quantitySold?: number };

/** Takes `quantity` tickets of the ticket type (bare id) from its stock as an order would (db/sql/take-tickets.sql). */
export async function sellTickets(ticketTypeId: string, quantity: number) {
  await db.execute(sql`select take_tickets(${`{${ticketTypeId}}`}::uuid[], ${`{${quantity}}`}::int[])`);
}

/**
 * A venue, an event and its ticket types written straight into the database, so order tests do not
 * depend on the catalog endpoints. Tickets default to on sale now, 100 available at 450.00.
 */
export async function insertCatalog(
  organizationId: string,
  options: { eventStatus?: EventStatus; eventName?: string; tickets?: TicketInput[] } = {},
) {
  const [venue] = await db
    .insert(venues)
    .values({ organizationId, name: "Hall", street: "Street 1", city: "Stockholm", postalCode: "111 57", country: "SE", capacity: 1000 })
    .returning();
  const [event] = await db
    .insert(events)
    .values({
      organizationId,
      venueId: venue!.id,
      name: options.eventName ?? "Spring concert",
      status: options.eventStatus ?? "published",
      startsAt: at(24 * 30),
      endsAt: at(24 * 30 + 3),
    })
    .returning();
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  const tickets = await db
    .insert(ticketTypes)
    .values(
      (options.tickets ?? [{}]).map(({ quantitySold: _sold, ...ticket }, index) => ({
        organizationId,
        eventId: event!.id,
        name: `Ticket ${index + 1}`,
        price: 45_000,
        currency: organization!.currency,
        quantityTotal: 100,
        saleStartsAt: at(-1),
        saleEndsAt: at(24 * 29),
        ...ticket,
      })),
    )
    .returning();
  for (const [index, ticket] of (options.tickets ?? []).entries()) {
    if (ticket.quantitySold) await sellTickets(tickets[index]!.id, ticket.quantitySold);
  }
  return {
    event: event!,
    eventId: toPublicId("event", event!.id),
    tickets: tickets.map((row) => ({ row, id: toPublicId("ticketType", row.id) })),
  };
}

export async function insertCampaign(organizationId: string, values: Partial<typeof campaigns.$inferInsert> = {}) {
  const [row] = await db
    .insert(campaigns)
    .values({ organizationId, name: "Spring sale", code: "SPRING", discountKind: "percent", discountValue: 10, ...values })
    .returning();
  return row!;
}

export interface OrderSeed {
  createdAt?: Date;
  totalPrice?: number;
  customerName?: string;
  customerEmail?: string;
  customerPhone?: string | null;
  status?: OrderStatus;
}

/**
 * Orders of one ticket each, written directly (no quantity bookkeeping) so search tests can control
 * created_at, prices and names, including ties. Returns the rows in the given order.
 */
export async function insertOrders(
  organizationId: string,
  event: { id: string; name: string },
  ticket: typeof ticketTypes.$inferSelect,
  seeds: OrderSeed[],
) {
  const [organization] = await db
    .select({ currency: organizations.currency })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const numbers = await reserveOrderNumbers(db, organizationId, seeds.length);
  const rows = await db
    .insert(orders)
    .values(
      seeds.map((seed, index) => ({
        organizationId,
        eventId: event.id,
        orderNumber: numbers[index]!,
        status: seed.status ?? "completed",
        customerEmail: seed.customerEmail ?? `customer${index}@example.test`,
        customerName: seed.customerName ?? `Customer ${index}`,
        customerPhone: seed.customerPhone === undefined ? null : seed.customerPhone,
        paymentMethod: "card",
        paymentMethodBrand: "visa",
        orderSource: "web",
        currency: organization!.currency,
        totalPrice: seed.totalPrice ?? ticket.price,
        originalPrice: seed.totalPrice ?? ticket.price,
        ...(seed.createdAt ? { createdAt: seed.createdAt } : {}),
      })),
    )
    .returning();
  await db.insert(orderItems).values(
    rows.map((row) => ({
      orderId: row.id,
      ticketTypeId: ticket.id,
      name: ticket.name,
      category: ticket.category,
      quantity: 1,
      unitPrice: row.totalPrice,
      vatPercent: ticket.vatPercent,
      eventId: event.id,
      eventName: event.name,
    })),
  );
  return rows;
}

/** A POST /v1/orders body buying one ticket of the first ticket type of an insertCatalog() catalog. */
export function oneTicketOrderBody(catalog: { eventId: string; tickets: { id: string }[] }) {
  return {
    event_id: catalog.eventId,
    customer: { email: "ada@example.test", name: "Ada Lovelace" },
    items: [{ ticket_id: catalog.tickets[0]!.id, quantity: 1 }],
  };
}
