import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

/** Where `npm start` records the pid of the server process that holds the embedded database. */
export const serverPidFile = () => path.join(env.DATA_DIR, "server.pid");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of a running server started by `npm start` for this DATA_DIR, or null. */
export function runningServerPid(): number | null {
  let text: string;
  try {
    text = readFileSync(serverPidFile(), "utf8");
  } catch {
    return null;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

export function writeServerPid(pid: number): void {
  mkdirSync(env.DATA_DIR, { recursive: true });
  writeFileSync(serverPidFile(), `${pid}\n`);
}

export function removeServerPid(pid: number): void {
  try {
    if (readFileSync(serverPidFile(), "utf8").trim() === String(pid)) rmSync(serverPidFile());
  } catch {
    // Already gone.
  }
}

/**
 * PGlite allows one process per data directory; a second one would corrupt it. With DATABASE_URL set
 * any number of processes may connect, so there is nothing to check.
 */
export function refuseIfServerHoldsDatabase(): void {
  if (env.DATABASE_URL) return;
  const pid = runningServerPid();
  if (pid === null) return;
  console.error(
    `The server (pid ${pid}) has the embedded database in ${env.PGLITE_DIR} open, and PGlite allows only one process.\n` +
      `Stop it first, or point DATABASE_URL at a PostgreSQL server.`,
  );
  process.exit(1);
}
