/**
 * A PostgreSQL cluster of the test's own (Debian's pg_createcluster, as root) on a free port of 127.0.0.1 with
 * trust authentication, so a test can really stop and start the database server without touching the shared one.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { promisify } from "node:util";
import { freePort } from "./app-process";

const run = promisify(execFile);
const COMMAND_TIMEOUT_MS = 60_000;

export interface PrivateCluster {
  /** postgres:// URL of its `postgres` database. */
  url: string;
  start(): Promise<void>;
  /** Fast shutdown: sessions are terminated and new connections refused. */
  stop(): Promise<void>;
  /** Stops it if running and deletes it with its data and log. */
  drop(): Promise<void>;
}

function installedVersion(): string {
  let versions: string[] = [];
  try {
    versions = readdirSync("/etc/postgresql").filter((entry) => /^\d+$/.test(entry));
  } catch {
    // No Debian PostgreSQL packaging: reported below.
  }
  if (!versions.length) throw new Error("No PostgreSQL cluster tooling in /etc/postgresql (pg_createcluster from postgresql-common is needed)");
  return versions.sort((a, b) => Number(b) - Number(a))[0]!;
}

export async function createPrivateCluster(): Promise<PrivateCluster> {
  if (process.getuid?.() !== 0) throw new Error("createPrivateCluster runs pg_createcluster and pg_ctlcluster, which need root");
  const version = installedVersion();
  const name = `faults_${process.pid}_${randomBytes(3).toString("hex")}`;
  const port = await freePort();
  const ctl = async (action: "start" | "stop") => {
    // Direct pg_ctl control (no redirect to systemctl: the cluster is not a service); a fast stop terminates
    // sessions at once, as a crash or failover would, instead of waiting for clients to leave.
    const options = ["--skip-systemctl-redirect", ...(action === "stop" ? ["-m", "fast"] : [])];
    await run("pg_ctlcluster", [...options, version, name, action], { timeout: COMMAND_TIMEOUT_MS });
  };
  const drop = async () => {
    await run("pg_dropcluster", ["--stop", version, name], { timeout: COMMAND_TIMEOUT_MS });
  };
  await run("pg_createcluster", [version, name, "-p", String(port), "--", "--auth=trust"], { timeout: COMMAND_TIMEOUT_MS });
  try {
    await ctl("start");
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => ctl("start"),
    stop: () => ctl("stop"),
    drop,
  };
}
