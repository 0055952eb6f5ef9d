/**
 * Reading a V8 `.cpuprofile` (what `node --cpu-prof` writes): where the busy samples went, by function (self
 * time) and by the code that holds the function (a package, Next's server bundles, Node's internals).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { round } from "./stats";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CostLine {
  name: string;
  percent: number;
}

export interface ProfileSummary {
  /** Busy time in the profile (samples that were not idle), ms. */
  busy_ms: number;
  /** Percent of busy samples per function (self time), highest first. */
  functions: CostLine[];
  /** Percent of busy samples per holder of the code (self time), highest first. */
  holders: CostLine[];
}

const IDLE = new Set(["(idle)", "(program)"]);

/** `node_modules/drizzle-orm/…` → drizzle-orm; Next's bundles by file; node: internals as node. */
function holderOf(url: string, functionName: string): string {
  if (!url) return functionName === "(garbage collector)" ? "GC" : "native";
  if (url.startsWith("node:")) return url.replace(/^node:internal\//, "node:");
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    const name = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return name === "next" ? `next/${rest.slice(1, 4).join("/")}` : name;
  }
  const server = url.indexOf("/server/");
  return server >= 0 ? `app bundle ${url.slice(server + 1).replace(/\[[^\]]*\]_/g, "")}` : path.basename(url);
}

function functionLabel(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const where = url ? ` ${holderOf(url, functionName)}:${lineNumber + 1}:${columnNumber + 1}` : "";
  return `${functionName || "(anonymous)"}${where}`;
}

function top(counts: Map<string, number>, total: number, limit: number): CostLine[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, hits]) => ({ name, percent: round((hits / total) * 100, 1) }));
}

/** Microseconds on the clock V8's profiler stamps samples with (CLOCK_MONOTONIC, shared by every process). */
export const profilerClockUs = () => Number(process.hrtime.bigint() / 1000n);

/** The busy samples taken within [fromUs, toUs] of the profiler's clock (the load, not the server's start-up). */
export function summarizeProfile(file: string, window: { fromUs: number; toUs: number }, limit = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<number, number>();
  let at = profile.startTime;
  let inWindow = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]!;
    if (at < window.fromUs || at > window.toUs) return;
    inWindow++;
    hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  const functions = new Map<string, number>();
  const holders = new Map<string, number>();
  let busy = 0;
  for (const [id, count] of hits) {
    const node = byId.get(id)!;
    if (IDLE.has(node.callFrame.functionName)) continue;
    busy += count;
    const label = functionLabel(node);
    functions.set(label, (functions.get(label) ?? 0) + count);
    const holder = holderOf(node.callFrame.url, node.callFrame.functionName);
    holders.set(holder, (holders.get(holder) ?? 0) + count);
  }
  const msPerSample = (window.toUs - window.fromUs) / 1000 / Math.max(1, inWindow);
  return { busy_ms: round(busy * msPerSample), functions: top(functions, busy, limit), holders: top(holders, busy, limit) };
}
