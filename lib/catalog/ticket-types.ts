import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { db, preparedPerHandle, type Queryable, type Transaction } from "@/db/client";
import { orderItems, orders, ticketTypes, ticketTypeStock, type EventStatus } from "@/db/schema";
import { conflict, notFound, validationFailed } from "@/lib/http/errors";
import { fromPublicId, toPublicId } from "@/lib/ids";
import { getOrganization } from "@/lib/organizations/organizations";
import { iso, uuidOrNotFound } from "./common-schemas";
import { findLiveEvent, findLiveEventStatus } from "./events";
import type { CreateTicketTypeInput, TicketType, TicketTypeStatus, UpdateTicketTypeInput } from "./ticket-type-schemas";

/**
 * A ticket type's columns and its tickets sold, which the database derives from the unsold stock
 * (db/sql/ticket-type-quantity-sold.sql) instead of storing on the ticket type's row.
 */
export const ticketTypeColumns = {
  ...getTableColumns(ticketTypes),
  quantitySold: sql<number>`${ticketTypes}.quantity_sold`.mapWith(Number),
};

export type TicketTypeRow = typeof ticketTypes.$inferSelect & { quantitySold: number };

/** Derived, never stored: it depends on the clock, the event and the quantities. */
export function ticketTypeStatus(row: TicketTypeRow, eventStatus: EventStatus, now: Date): TicketTypeStatus {
  if (row.cancelledAt || eventStatus === "cancelled") return "cancelled";
  if (row.quantitySold >= row.quantityTotal) return "sold_out";
  if (now < row.saleStartsAt) return "scheduled";
  if (now >= row.saleEndsAt) return "sale_ended";
  return "on_sale";
}

export function serializeTicketType(row: TicketTypeRow, eventStatus: EventStatus, now = new Date()): TicketType {
  return {
    id: toPublicId("ticketType", row.id),
    event_id: toPublicId("event", row.eventId),
    name: row.name,
    category: row.category,
    price: row.price,
    currency: row.currency,
    vat: row.vatPercent,
    quantity_total: row.quantityTotal,
    quantity_sold: row.quantitySold,
    status: ticketTypeStatus(row, eventStatus, now),
    sale_starts_at: iso(row.saleStartsAt),
    sale_ends_at: iso(row.saleEndsAt),
    created_at: iso(row.createdAt),
  };
}

/** The event in the path; a share lock keeps it from being cancelled or deleted mid-change. */
async function pathEvent(q: Queryable, organizationId: string, eventPublicId: string, lock?: "share") {
  const event = await findLiveEvent(q, organizationId, uuidOrNotFound("event", eventPublicId, "Event"), lock);
  if (!event) throw notFound("Event");
  return event;
}

async function editableEvent(tx: Transaction, organizationId: string, eventPublicId: string) {
  const event = await pathEvent(tx, organizationId, eventPublicId, "share");
  if (event.status === "cancelled") throw conflict("The event is cancelled; its ticket types cannot be changed");
  return event;
}

/**
 * The ticket type, locked against other edits and refunds but not against orders, which only take its stock
 * (db/sql/take-tickets.sql). With `stock`, every stock bucket is locked too, so that quantitySold stays exact
 * until commit (a capacity change).
 */
async function lockedTicketType(
  tx: Transaction,
  organizationId: string,
  eventId: string,
  publicId: string,
  { stock = false } = {},
) {
  const id = uuidOrNotFound("ticketType", publicId, "Ticket type");
  const [found] = await tx
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.organizationId, organizationId), eq(ticketTypes.eventId, eventId), eq(ticketTypes.id, id)))
    .limit(1)
    .for("no key update");
  if (!found) throw notFound("Ticket type");
  if (stock) {
    await tx.execute(sql`select bucket from ${ticketTypeStock} where ticket_type_id = ${id} order by bucket for update`);
  }
  const [row] = await tx.select(ticketTypeColumns).from(ticketTypes).where(eq(ticketTypes.id, id));
  return row!;
}

async function assertOrganizationCurrency(q: Queryable, organizationId: string, currency: string | undefined) {
  const organization = await getOrganization(organizationId, q);
  if (currency !== undefined && currency !== organization!.currency) {
    throw validationFailed([
      { path: "currency", message: `Must be ${organization!.currency}, the organization's currency` },
    ]);
  }
  return organization!.currency;
}

// Prepared (see preparedPerHandle): built once instead of on every request of the list.
const preparedTicketTypesOfEvent = preparedPerHandle((database) =>
  database
    .select(ticketTypeColumns)
    .from(ticketTypes)
    .where(and(eq(ticketTypes.organizationId, sql.placeholder("organizationId")), eq(ticketTypes.eventId, sql.placeholder("eventId"))))
    .orderBy(asc(ticketTypes.createdAt), asc(ticketTypes.id))
    .prepare("ticket_types_of_event"),
);

export async function listTicketTypes(organizationId: string, eventPublicId: string): Promise<{ data: TicketType[] }> {
  const event = await findLiveEventStatus(organizationId, uuidOrNotFound("event", eventPublicId, "Event"));
  if (!event) throw notFound("Event");
  const rows = await preparedTicketTypesOfEvent().execute({ organizationId, eventId: event.id });
  const now = new Date();
  return { data: rows.map((row) => serializeTicketType(row, event.status, now)) };
}

/** Tickets sold and on offer per event (by public id), summed over all its ticket types; an event without any has none. */
export async function ticketTotalsByEvent(
  organizationId: string,
  eventPublicIds: string[],
): Promise<Map<string, { sold: number; total: number }>> {
  const ids = eventPublicIds.flatMap((publicId) => fromPublicId("event", publicId) ?? []);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      eventId: ticketTypes.eventId,
      sold: sql<number>`sum(${ticketTypeColumns.quantitySold})`.mapWith(Number),
      total: sql<number>`sum(${ticketTypes.quantityTotal})`.mapWith(Number),
    })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.organizationId, organizationId), inArray(ticketTypes.eventId, ids)))
    .groupBy(ticketTypes.eventId);
  return new Map(rows.map(({ eventId, ...totals }) => [toPublicId("event", eventId), totals]));
}

export async function createTicketType(
  organizationId: string,
  eventPublicId: string,
  input: CreateTicketTypeInput,
): Promise<TicketType> {
  return db.transaction(async (tx) => {
    const event = await editableEvent(tx, organizationId, eventPublicId);
    const currency = await assertOrganizationCurrency(tx, organizationId, input.currency);
    const [row] = await tx
      .insert(ticketTypes)
      .values({
        organizationId,
        eventId: event.id,
        name: input.name,
        price: input.price,
        currency,
        quantityTotal: input.quantity_total,
        saleStartsAt: input.sale_starts_at,
        saleEndsAt: input.sale_ends_at,
        category: input.category,
        vatPercent: input.vat,
      })
      .returning();
    return serializeTicketType({ ...row!, quantitySold: 0 }, event.status);
  });
}

export async function updateTicketType(
  organizationId: string,
  eventPublicId: string,
  publicId: string,
  input: UpdateTicketTypeInput,
): Promise<TicketType> {
  return db.transaction(async (tx) => {
    const event = await editableEvent(tx, organizationId, eventPublicId);
    const current = await lockedTicketType(tx, organizationId, event.id, publicId, { stock: input.quantity_total !== undefined });
    if (current.cancelledAt) throw conflict("The ticket type is cancelled");
    await assertOrganizationCurrency(tx, organizationId, input.currency);
    if (input.quantity_total !== undefined && input.quantity_total < current.quantitySold) {
      throw conflict(`quantity_total cannot go below the ${current.quantitySold} tickets already sold`);
    }
    if ((input.sale_starts_at ?? current.saleStartsAt) >= (input.sale_ends_at ?? current.saleEndsAt)) {
      throw validationFailed([
        { path: input.sale_ends_at ? "sale_ends_at" : "sale_starts_at", message: "sale_starts_at must be before sale_ends_at" },
      ]);
    }
    const [row] = await tx
      .update(ticketTypes)
      .set({
        name: input.name,
        price: input.price,
        quantityTotal: input.quantity_total,
        saleStartsAt: input.sale_starts_at,
        saleEndsAt: input.sale_ends_at,
        category: input.category,
        vatPercent: input.vat,
        updatedAt: new Date(),
      })
      .where(eq(ticketTypes.id, current.id))
      .returning();
    return serializeTicketType({ ...row!, quantitySold: current.quantitySold }, event.status);
  });
}

/** A hard delete, allowed only while nothing was ever sold: order items keep pointing at their ticket type. */
export async function deleteTicketType(organizationId: string, eventPublicId: string, publicId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const event = await pathEvent(tx, organizationId, eventPublicId, "share");
    const current = await lockedTicketType(tx, organizationId, event.id, publicId);
    const [sold] = await tx
      .select({ id: orderItems.id })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.organizationId, organizationId), eq(orderItems.ticketTypeId, current.id)))
      .limit(1);
    if (current.quantitySold > 0 || sold) throw conflict("Tickets of this type have been sold; it cannot be deleted");
    await tx.delete(ticketTypes).where(eq(ticketTypes.id, current.id));
  });
}
