/**
 * The processes of `npm start`, forked with Node's cluster module: `count` ordinary `next start` web workers that
 * share one listening port (the primary hands out connections in turn), and optionally other roles (the delivery
 * worker) that serve no port and say `"ready"` once running. A worker that dies after it was serving or ready (a
 * crash, an OOM kill) is replaced; one that dies before that stops them all, since its successors would fail the
 * same way, and so does one that was stopped or exited cleanly. They share rate limits, inventory and webhook
 * deliveries through the database.
 */
import cluster, { type Worker } from "node:cluster";
import { constants } from "node:os";

export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

/** The message the primary sends every running worker when another one crashed. */
export const PEER_CRASHED = "peer-crashed";

export interface WorkerCluster {
  /** Resolves with the exit code for `npm start` once every worker has stopped for good. */
  stopped: Promise<number>;
  running(): boolean;
}

export interface WorkerRole {
  count: number;
  script: string;
  args: string[];
  /** Node options of the worker (the web workers run Next's own CLI without the tsx loader the primary runs with). */
  execArgv: string[];
  env?: Record<string, string>;
  /** "listening" for a server, "ready" for a worker that sends that message once it runs. */
  upWhen: "listening" | "ready";
}

export function startWorkers(roles: WorkerRole[]): WorkerCluster {
  const live = new Map<Worker, WorkerRole>();
  const served = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));

  const fork = (role: WorkerRole) => {
    cluster.setupPrimary({ exec: role.script, args: role.args, execArgv: role.execArgv });
    const worker = cluster.fork(role.env);
    live.set(worker, role);
    if (role.upWhen === "listening") worker.once("listening", () => served.add(worker));
    else worker.on("message", (message) => message === "ready" && served.add(worker));
  };
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of live.keys()) worker.process.kill(signal);
  };

  cluster.on("exit", (worker, code, signal) => {
    const role = live.get(worker)!;
    live.delete(worker);
    // A worker stopped by SIGINT/SIGTERM (Ctrl+C reaches the whole process group) or exiting cleanly was told to.
    const crashed = signal ? signal !== "SIGINT" && signal !== "SIGTERM" : code !== 0;
    if (!stopping && served.has(worker) && crashed) {
      console.error(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a new one.`);
      // What the dead worker committed but never announced (a delivery's event) is for the others to pick up.
      for (const peer of served) if (peer !== worker && peer.isConnected()) peer.send(PEER_CRASHED);
      served.delete(worker);
      fork(role);
      return;
    }
    if (!stopping) {
      exitCode = exitCodeOf(code, signal as NodeJS.Signals | null);
      stopAll("SIGTERM");
    }
    if (live.size === 0) resolveStopped(exitCode);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(signal));
  for (const role of roles) for (let i = 0; i < role.count; i++) fork(role);
  return { stopped, running: () => live.size > 0 };
}
