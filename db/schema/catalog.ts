import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { organizationIdColumn, type Currency } from "./organizations";
import { createdAtColumn } from "./columns";

export const venues = pgTable(
  "venues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    name: text("name").notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    postalCode: text("postal_code").notNull(),
    country: text("country").notNull(),
    capacity: integer("capacity").notNull(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Past events keep pointing at their venue, so a deleted venue is hidden rather than removed.
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("venues_organization_idx").on(t.organizationId, t.createdAt)],
);

export const EVENT_STATUSES = ["draft", "published", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    venueId: uuid("venue_id")
      .notNull()
      .references(() => venues.id),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status").$type<EventStatus>().notNull().default("draft"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("events_organization_status_idx").on(t.organizationId, t.status, t.createdAt),
    index("events_organization_venue_idx").on(t.organizationId, t.venueId),
    check("events_status_check", sql`${t.status} in ('draft','published','cancelled')`),
    check("events_time_check", sql`${t.startsAt} < ${t.endsAt}`),
  ],
);

export const ticketTypes = pgTable(
  "ticket_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id),
    name: text("name").notNull(),
    category: text("category").notNull().default("Admission"),
    price: integer("price").notNull(),
    currency: text("currency").$type<Currency>().notNull(),
    vatPercent: doublePrecision("vat_percent").notNull().default(6),
    // What is left to sell lives in ticket_type_stock; sold = quantity_total - its sum (db/sql/ticket-type-quantity-sold.sql).
    quantityTotal: integer("quantity_total").notNull(),
    saleStartsAt: timestamp("sale_starts_at", { withTimezone: true }).notNull(),
    saleEndsAt: timestamp("sale_ends_at", { withTimezone: true }).notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAtColumn(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ticket_types_event_idx").on(t.organizationId, t.eventId, t.createdAt),
    check("ticket_types_quantity_check", sql`${t.quantityTotal} >= 0`),
    check("ticket_types_price_check", sql`${t.price} >= 0`),
    check("ticket_types_sale_window_check", sql`${t.saleStartsAt} < ${t.saleEndsAt}`),
  ],
);

/**
 * The tickets of a ticket type still for sale, split over a fixed number of buckets (db/sql/take-tickets.sql):
 * concurrent buyers of one ticket type take from different rows instead of queueing on one until commit.
 * Kept by triggers on ticket_types (created with it, re-spread when quantity_total changes).
 */
export const ticketTypeStock = pgTable(
  "ticket_type_stock",
  {
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "cascade" }),
    bucket: smallint("bucket").notNull(),
    available: integer("available").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketTypeId, t.bucket] }),
    // The last line of defence against overselling, whatever the application does.
    check("ticket_type_stock_available_check", sql`${t.available} >= 0`),
  ],
);

export const DISCOUNT_KINDS = ["amount", "percent"] as const;

export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    discountKind: text("discount_kind").$type<(typeof DISCOUNT_KINDS)[number]>().notNull(),
    // Minor units for "amount", whole percent for "percent".
    discountValue: integer("discount_value").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: createdAtColumn(),
  },
  (t) => [
    uniqueIndex("campaigns_code_unique").on(t.organizationId, sql`upper(${t.code})`),
    check("campaigns_discount_check", sql`${t.discountValue} >= 0`),
  ],
);

export const MEMBERSHIP_STATUSES = ["active", "expired", "cancelled"] as const;

export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: organizationIdColumn(),
    customerEmail: text("customer_email").notNull(),
    customerName: text("customer_name").notNull(),
    plan: text("plan").notNull(),
    status: text("status").$type<(typeof MEMBERSHIP_STATUSES)[number]>().notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    createdAt: createdAtColumn(),
  },
  (t) => [index("memberships_organization_status_idx").on(t.organizationId, t.status, t.createdAt)],
);
