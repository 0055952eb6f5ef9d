import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";

/** Entries deleted per statement: short transactions that never hold the table long. */
export const AUDIT_PRUNE_BATCH = 5_000;

/**
 * Deletes at most `batch` entries older than `days`, oldest first; returns how many went. The transaction
 * declares the retention to the append-only trigger, which refuses to delete anything younger.
 */
export async function pruneAuditLog(days: number, batch = AUDIT_PRUNE_BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('audit_log.retention_days', ${String(days)}, true)`);
    const rows = rowsOf(
      await tx.execute(sql`
        delete from audit_log
        where id in (
          select id from audit_log
          where created_at < now() - make_interval(days => ${days})
          order by created_at
          limit ${batch}
        )
        returning id`),
    );
    return rows.length;
  });
}
