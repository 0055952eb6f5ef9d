import { timestamp } from "drizzle-orm/pg-core";

/** When a row was made: set by the database, in UTC. */
export const createdAtColumn = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
