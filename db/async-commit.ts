import { sql } from "drizzle-orm";

/**
 * A condition that always holds and turns synchronous_commit off for the rest of its statement's transaction
 * (set_config's is_local), so that the statement's commit returns without waiting for its WAL to reach disk.
 * For the delivery engine's bookkeeping only (claims and attempt records): a PostgreSQL crash may
 * forget the last moments of it, and each forgotten write is a delivery sent again, as webhooks are at least once
 * anyway. The subquery is uncorrelated, so it runs once per statement (a one-time filter), before any row.
 */
export const commitWithoutWaiting = sql<boolean>`(select set_config('synchronous_commit', 'off', true)) is not null`;
