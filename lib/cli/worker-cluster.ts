/**
 * The server processes of `npm start`: `count` ordinary `next start` processes forked with Node's cluster module,
 * so they share one listening port (the primary hands out connections in turn). A worker that dies after it was
 * serving (a crash, an OOM kill) is replaced; one that dies before it ever listened stops them all, since its
 * successors would fail the same way, and so does one that was stopped or exited cleanly. They share rate limits, inventory and webhook deliveries through the database.
 */
import cluster, { type Worker } from "node:cluster";
import { constants } from "node:os";

export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

export interface WorkerCluster {
  /** Resolves with the exit code for `npm start` once every worker has stopped for good. */
  stopped: Promise<number>;
  running(): boolean;
}

export function startWorkers(count: number, script: string, args: string[]): WorkerCluster {
  // No execArgv: the workers run Next's own CLI without the tsx loader this script was started with.
  cluster.setupPrimary({ exec: script, args, execArgv: [] });
  const live = new Set<Worker>();
  const served = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));

  const fork = () => {
    const worker = cluster.fork();
    live.add(worker);
    worker.once("listening", () => served.add(worker));
  };
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of live) worker.process.kill(signal);
  };

  cluster.on("exit", (worker, code, signal) => {
    live.delete(worker);
    // A worker stopped by SIGINT/SIGTERM (Ctrl+C reaches the whole process group) or exiting cleanly was told to.
    const crashed = signal ? signal !== "SIGINT" && signal !== "SIGTERM" : code !== 0;
    if (!stopping && served.has(worker) && crashed) {
      console.error(`Server worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a new one.`);
      fork();
      return;
    }
    if (!stopping) {
      exitCode = exitCodeOf(code, signal as NodeJS.Signals | null);
      stopAll("SIGTERM");
    }
    if (live.size === 0) resolveStopped(exitCode);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(signal));
  for (let i = 0; i < count; i++) fork();
  return { stopped, running: () => live.size > 0 };
}
