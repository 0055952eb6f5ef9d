import { readFileSync, readdirSync } from "node:fs";

/** Resident set size in bytes of a process and all its descendants (Linux /proc); 0 once it has ended. */
export function treeRss(pid: number): number {
  let total = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(" ") : []) total += treeRss(Number(child));
    }
  } catch {
    // The process ended between listing and reading.
  }
  return total;
}

/**
 * Samples `treeRss(pid)` every `everyMs` until stopped; `peak()` is the highest sample so far (the first is
 * taken at once, so a peak is never below the starting size).
 */
export function sampleTreeRss(pid: number, everyMs = 50): { peak(): number; stop(): number } {
  let peak = treeRss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, everyMs);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, treeRss(pid));
      return peak;
    },
  };
}
