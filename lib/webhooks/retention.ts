import { sql } from "drizzle-orm";
import { db, rowsOf } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";

/** Deliveries deleted per statement: short transactions that never hold the table long. */
export const RETENTION_BATCH = 1_000;

/**
 * Deletes at most `batch` finished (Success or PermanentlyFailed) deliveries older than `days`, oldest
 * first, with their attempts (cascade). Unfinished deliveries are never deleted. Returns how many went.
 */
export async function deleteExpiredDeliveries(days: number, batch = RETENTION_BATCH): Promise<number> {
  const rows = rowsOf(
    await db.execute(sql`
      delete from ${webhookDeliveries}
      where id in (
        select id from ${webhookDeliveries}
        where status in ('Success', 'PermanentlyFailed')
          and created_at < now() - make_interval(days => ${days})
          and updated_at < now() - make_interval(days => ${days})
        order by created_at
        limit ${batch}
      )
      returning id`),
  );
  return rows.length;
}
