import { readdirSync, readFileSync } from "node:fs";
import type postgres from "postgres";

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

/** The processes `pid` started (its direct children), from /proc. */
export function childPids(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children ? children.split(" ").map(Number) : [];
}

/** The command line of a process, its arguments joined by spaces. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
}

/**
 * CPU time (user + system) the process and its descendants (if it forked any) have used so far, in ms: unlike a
 * profile's busy samples or wall time, not inflated by waiting for a core on a loaded machine.
 */
export function cpuMs(pid: number): number {
  return ownCpuMs(pid) + childPids(pid).reduce((sum, child) => sum + cpuMs(child), 0);
}

/** The name and the user and system CPU time (ms) in a /proc stat file: of a process, or of one of its threads. */
function statOf(file: string): { name: string; user: number; system: number } {
  const stat = readFileSync(file, "utf8");
  // Fields after the command's closing parenthesis: state is field 3, utime 14 and stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = (ticks: string | undefined) => (Number(ticks) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), user: ms(fields[11]), system: ms(fields[12]) };
}

/** CPU time (user + system, ms) of the process alone. */
function ownCpuMs(pid: number): number {
  const { user, system } = statOf(`/proc/${pid}/stat`);
  return user + system;
}

/** The thread of `node --cpu-prof` that processes its samples; it spins while the profiler runs. */
const PROFILER_THREAD = "v8:ProfEvntProc";

/**
 * CPU time (ms) of a Node process by thread: its main thread's (the JavaScript a CPU profile samples) in user and
 * system time, and its other threads' together (V8's garbage collection and compiler helpers, libuv's pool), leaving
 * out the CPU profiler's own.
 */
export function threadCpuMs(pid: number): { user: number; system: number; helpers: number } {
  const main = statOf(`/proc/${pid}/task/${pid}/stat`);
  let helpers = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (tid === String(pid)) continue;
    try {
      const thread = statOf(`/proc/${pid}/task/${tid}/stat`);
      if (thread.name !== PROFILER_THREAD) helpers += thread.user + thread.system;
    } catch {
      // Ended meanwhile.
    }
  }
  return { user: main.user, system: main.system, helpers };
}

/** CPU time (ms) the processes `pids` have used so far, added up; one that has ended counts 0. */
export function processesCpuMs(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += ownCpuMs(pid);
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}

/**
 * CPU time (ms) so far of the PostgreSQL sessions of `sql`'s database whose application_name is like `pattern`
 * (one that has ended counts 0).
 */
export async function sessionsCpuMs(sql: postgres.Sql, pattern: string): Promise<number> {
  const sessions = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()
    and application_name like ${pattern}`;
  return processesCpuMs(sessions.map((session) => session.pid));
}
