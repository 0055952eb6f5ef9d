import { sql } from "drizzle-orm";
import { databaseHandle } from "@/db/client";

export async function databaseHealth(): Promise<{ status: "ok" | "unavailable"; driver: string; latency_ms?: number }> {
  const handle = databaseHandle();
  const started = performance.now();
  try {
    await handle.db.execute(sql`select 1`);
    return { status: "ok", driver: handle.driver, latency_ms: Math.round(performance.now() - started) };
  } catch {
    return { status: "unavailable", driver: handle.driver };
  }
}
