import { readFileSync } from "node:fs";

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

/** CPU time (user + system, ms) of the process alone. */
function ownCpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: state is field 3, utime 14 and stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
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
