/**
 * The targets of issue 18 and the speed targets of issue 16, judged from bench/results.json (bench/summary.ts).
 * Each benchmark stores its figures and verdicts under its own key; a target reads them from there and says
 * "not measured" when its benchmark has not run (or stored no such figure).
 */
import { webhookMedians, type WebhookBench } from "./webhook-report";

type Json = Record<string, unknown>;

export interface TargetRow {
  issue: 16 | 18;
  target: string;
  /** Where the figures are: the section of bench/results.md and the key of bench/results.json. */
  section: string;
  /** The measured value, or undefined when no benchmark measured it. */
  value?: string;
  holds?: boolean;
  measuredAt?: string;
}

interface Source {
  key: string;
  section: string;
}

const API: Source = { key: "api", section: "API benchmark" };
const ANALYTICS: Source = { key: "analytics", section: "Analytics benchmark" };
const WEBHOOKS: Source = { key: "webhook_delivery", section: "Orders and webhooks benchmark" };
const ON_SALE: Source = { key: "on_sale", section: "On-sale rush" };
const PROFILE: Source = { key: "profile", section: "CPU profile (before) / (after)" };
const SEARCH: Source = { key: "search", section: "Search, deep pages, cursor and rate limit" };
const WORKERS: Source = { key: "workers", section: "Web workers: one per core" };

const obj = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
const arr = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** A target judged from one benchmark's stored results; `judge` returns undefined when the figure is missing. */
function row(
  results: Json,
  issue: 16 | 18,
  target: string,
  source: Source,
  judge: (stored: Json) => { value: string; holds: boolean; measuredAt?: string } | undefined,
): TargetRow {
  const stored = obj(results[source.key]);
  const verdict = stored ? judge(stored) : undefined;
  const measuredAt = verdict?.measuredAt ?? (typeof stored?.measured_at === "string" ? stored.measured_at : undefined);
  return { issue, target, section: `${source.section} (\`${source.key}\`)`, ...verdict, ...(verdict ? { measuredAt } : {}) };
}

const ISSUE_SCALE = 1_000_000;

/**
 * A verdict on a target stated "at 1,000,000 orders": the value names the scale it was measured at, and a
 * smaller scale (a run while developing) holds nothing.
 */
function atScale(orders: unknown, verdict: { value: string; holds: boolean } | undefined) {
  const scale = num(orders);
  if (!verdict || scale === undefined) return verdict;
  return { value: `${verdict.value} (${scale.toLocaleString("en")} orders)`, holds: verdict.holds && scale >= ISSUE_SCALE };
}

/** The one of `items` that `score` ranks highest (the worst case of a target), with whether all pass. */
function worst(items: Json[], score: (item: Json) => number, passes: (item: Json) => boolean) {
  if (items.length === 0) return undefined;
  const sorted = [...items].sort((a, b) => score(b) - score(a));
  return { item: sorted[0]!, all: items.every(passes), failing: items.filter((item) => !passes(item)).length };
}

function appVsBareRows(results: Json): TargetRow[] {
  const comparisons = (stored: Json) => arr(obj(stored.app_vs_bare)?.comparisons);
  const targets = (c: Json) => obj(c.targets) ?? {};
  const ratioRow = (label: string, target: string, field: "ratio_rps" | "ratio_p50", verdict: "throughput" | "p50") =>
    row(results, 18, target, API, (stored) => {
      const w = worst(comparisons(stored), (c) => (num(c[field]) ?? 0) / (num(targets(c).ratio_limit) ?? 1), (c) => targets(c)[verdict] === true);
      if (!w) return undefined;
      const summary = w.all ? "every endpoint" : `${w.failing} of ${comparisons(stored).length} endpoints over`;
      return { value: `${summary}; worst ${w.item.endpoint}: ${label} ${w.item[field]}x (limit ${targets(w.item).ratio_limit}x)`, holds: w.all };
    });
  return [
    row(results, 18, "Bare Node reference measured beside the app in the same run, interleaved, ≥ 3 repetitions, medians; health floor in the same run", API, (stored) => {
      const avb = obj(stored.app_vs_bare);
      const c = comparisons(stored);
      if (!avb || c.length === 0) return undefined;
      const reps = Math.min(...c.map((x) => arr(x.rounds).length));
      const floor = obj(avb.health);
      return {
        value: `${c.length} endpoints, ${reps} rounds each; floor ${floor ? `${num(floor.cpu_ms_per_request)} ms CPU/request` : "missing"}`,
        holds: reps >= 3 && floor !== undefined,
      };
    }),
    row(results, 18, "App Node CPU per request ≤ health floor + bare + 0.5 ms, every API endpoint", API, (stored) => {
      const c = comparisons(stored);
      const w = worst(c, (x) => (num(obj(x.app)?.cpu_ms_per_request) ?? 0) - (num(targets(x).cpu_limit_ms) ?? 0), (x) => targets(x).cpu === true);
      if (!w) return undefined;
      const app = num(obj(w.item.app)?.cpu_ms_per_request);
      return {
        value: `${w.all ? "every endpoint" : `${w.failing} of ${c.length} endpoints over`}; worst ${w.item.endpoint}: ${app} ms (limit ${targets(w.item).cpu_limit_ms} ms)`,
        holds: w.all,
      };
    }),
    ratioRow("bare/app req/s", "Throughput at concurrency 16 within 1.5x of bare (transactions pages), 2x (small endpoints)", "ratio_rps", "throughput"),
    ratioRow("app/bare p50", "p50 at concurrency 1 within 1.5x of bare (pages), 2x (small endpoints)", "ratio_p50", "p50"),
  ];
}

function profileRow(results: Json): TargetRow {
  return row(results, 18, "CPU profile per endpoint written before and after the changes", PROFILE, (stored) => {
    const before = obj(stored.before);
    const after = obj(stored.after);
    if (!before && !after) return undefined;
    const count = (p?: Json) => Object.keys(obj(p?.endpoints) ?? {}).length;
    const measuredAt = [after?.measured_at, before?.measured_at].find((at): at is string => typeof at === "string");
    return { value: `before: ${count(before)} endpoints, after: ${count(after)}`, holds: count(before) > 0 && count(after) > 0, measuredAt };
  });
}

/** The worst p50 of a group of bench/run.ts's search cases (support/search-cases.ts, under "search") against its target. */
function searchRow(results: Json, target: string, group: "q" | "filtered" | "deep", only: (name: string) => boolean): TargetRow {
  return row(results, 18, target, SEARCH, (stored) => {
    const cases = arr(stored[group]).filter((c) => typeof c.name === "string" && only(c.name as string));
    const w = worst(cases, (c) => num(c.p50_ms) ?? 0, (c) => c.met === true);
    if (!w) return undefined;
    return atScale(stored.orders, { value: `${cases.length > 1 ? `worst of ${cases.length}: ` : ""}${w.item.name} p50 ${w.item.p50_ms} ms`, holds: w.all });
  });
}

function cursorRow(results: Json): TargetRow {
  return row(results, 18, "Cursor: next page by cursor at any depth in constant time per page", SEARCH, (stored) => {
    const walks = arr(stored.cursor);
    const w = worst(walks, (c) => num(c.deep_p50_ms) ?? 0, (c) => c.met === true);
    if (!w) return undefined;
    const value = `worst of ${walks.length}: sort=${w.item.sort} order=${w.item.order} p50 ${w.item.deep_p50_ms} ms at depth ${w.item.from}, ${w.item.start_p50_ms} ms from the start`;
    return atScale(stored.orders, { value, holds: w.all });
  });
}

function webhookRows(results: Json): TargetRow[] {
  const medians = (stored: Json) => (arr(stored.rounds).length > 0 ? webhookMedians(stored as unknown as WebhookBench) : undefined);
  const judged = (target: string, judge: (m: ReturnType<typeof webhookMedians>) => { value: string; holds: boolean }) =>
    row(results, 18, target, WEBHOOKS, (stored) => {
      const m = medians(stored);
      return m ? judge(m) : undefined;
    });
  return [
    judged("POST /v1/orders at concurrency 16 within 2x of the same transaction as raw SQL", (m) => ({
      value: `${m.noIntegration} orders/s, raw SQL ${m.rawSql} (${m.rawSqlRatio}x)`,
      holds: m.rawSqlRatio <= 2,
    })),
    judged("A healthy integration costs ≤ 25 % of order throughput", (m) => ({
      value: `${m.healthy} vs ${m.noIntegration} orders/s (${Math.round(m.integrationCost * 1000) / 10} %)`,
      holds: m.integrationCost <= 0.25,
    })),
    judged("Order commit → first attempt p50 ≤ 50 ms", (m) => ({ value: `p50 ${m.lagP50} ms, p99 ${m.lagP99} ms`, holds: m.lagP50 <= 50 })),
    judged("≥ 500 deliveries/s to a local receiver", (m) => ({ value: `${m.deliveries}/s`, holds: m.deliveries >= 500 })),
    judged("A receiver that always fails raises GET /v1/orders p50 by ≤ 1.5x", (m) => ({
      value: `${m.apiBefore} → ${m.apiDuring} ms (${m.apiRatio}x)`,
      holds: m.apiRatio <= 1.5,
    })),
    judged("…and never delays another integration's first attempts by > 1 s", (m) => ({
      value: `p50 ${m.besideDeadP50} ms, p99 ${m.besideDeadP99} ms`,
      holds: m.besideDeadP99 <= 1000,
    })),
  ];
}

function onSaleRows(results: Json): TargetRow[] {
  const targets = (stored: Json) => obj(stored.targets);
  return [
    row(results, 18, "On-sale rush, 16 buyers of one ticket type: ≥ 400 orders/s as raw SQL", ON_SALE, (stored) => {
      const holds = targets(stored)?.raw_sql_at_least_400_orders_per_second;
      const value = num(obj(stored.raw_sql)?.median_orders_per_second);
      return typeof holds === "boolean" && value !== undefined ? { value: `${value} orders/s (median)`, holds } : undefined;
    }),
    row(results, 18, "On-sale rush: the app within 2x of raw SQL, inventory exact", ON_SALE, (stored) => {
      const t = targets(stored);
      if (typeof t?.app_within_2x_of_raw_sql !== "boolean" || typeof t.inventory_exact !== "boolean") return undefined;
      return {
        value: `app ${num(obj(stored.app)?.median_orders_per_second)} orders/s (${num(stored.raw_to_app_ratio)}x); inventory ${t.inventory_exact ? "exact" : "**not exact**"}`,
        holds: t.app_within_2x_of_raw_sql && t.inventory_exact,
      };
    }),
  ];
}

function rateLimitRow(results: Json): TargetRow {
  return row(results, 18, "Rate limit: ≤ 0.3 ms of database time per request, ≥ 5,000 requests/s for one key, exact, no bloat", SEARCH, (stored) => {
    const limit = obj(stored.rate_limit);
    const targets = obj(limit?.targets);
    if (!limit || !targets) return undefined;
    const table = (t: unknown) => `${num(obj(t)?.pages)} pages`;
    const value =
      `${num(limit.hits_per_s)} hits/s over ${num(limit.connections)} connections, ${num(limit.db_ms_per_call_contended) ?? "?"} ms per call ` +
      `(${num(limit.db_ms_per_call_alone) ?? "?"} alone), ${num(obj(limit.exactness)?.accepted)} of ${num(obj(limit.exactness)?.attempts)} accepted ` +
      `at limit ${num(obj(limit.exactness)?.limit)}, table ${table(limit.table_before)} → ${table(limit.table_after)}`;
    return { value, holds: Object.values(targets).every((t) => t === true) };
  });
}

function workersRow(results: Json): TargetRow {
  return row(results, 18, "Every core used: one worker per core on PostgreSQL, throughput gain at concurrency 16 measured", WORKERS, (stored) => {
    const gain = num(stored.throughput_gain);
    if (gain === undefined) return undefined;
    return { value: `${num(stored.count)} workers: ${gain}x the throughput of one (${num(stored.rps_every_core)} vs ${num(stored.rps_one_worker)} req/s)`, holds: gain > 1 };
  });
}

function dashboardRow(results: Json): TargetRow {
  return row(results, 18, "Dashboard: server time of every page p50 ≤ 100 ms (signed in)", API, (stored) => {
    const w = worst(arr(obj(stored.dashboard)?.pages), (p) => num(p.p50_ms) ?? 0, (p) => p.met === true);
    if (!w) return undefined;
    return atScale(stored.orders_main_organization, {
      value: `${w.all ? "every page" : `${w.failing} pages over`}; slowest ${w.item.page} p50 ${w.item.p50_ms} ms`,
      holds: w.all,
    });
  });
}

function analyticsRows(results: Json): TargetRow[] {
  const summary = (groupBy: string, limitMs: number) =>
    row(results, 16, `Summary over one year, group_by=${groupBy}: p50 < ${limitMs} ms`, ANALYTICS, (stored) => {
      const s = arr(stored.summaries).find((x) => x.group_by === groupBy);
      const p50 = num(obj(s?.latency)?.p50_ms);
      return p50 === undefined ? undefined : atScale(stored.orders, { value: `p50 ${p50} ms`, holds: p50 < limitMs });
    });
  return [
    summary("day", 50),
    summary("month", 50),
    summary("event", 100),
    row(results, 16, "Export of 1,000,000 orders < 60 s, memory within 100 MB of idle (every format)", ANALYTICS, (stored) => {
      const exports = arr(stored.exports);
      // The 60 s is an export's own time; two at once share the cores, so theirs is shown but judged on memory alone.
      const alone = exports.filter((e) => e.concurrent !== true);
      const w = worst(alone, (e) => num(e.total_s) ?? 0, (e) => e.met === true);
      if (!w) return undefined;
      const together = exports.filter((e) => e.concurrent === true);
      const slowestTogether = Math.max(...together.map((e) => num(e.total_s) ?? 0));
      const growth = Math.max(...exports.map((e) => num(e.growth_mb) ?? 0));
      return atScale(stored.orders, {
        value:
          `slowest alone ${w.item.name} ${w.item.total_s} s, first byte ${w.item.first_byte_ms} ms` +
          `${together.length ? `; ${together.length} at once, the slower ${slowestTogether} s` : ""}; most growth +${growth} MB`,
        holds: w.all && together.every((e) => e.met === true),
      });
    }),
  ];
}

/** Every target, in the order of the issues' text. */
export function targetRows(results: Json): TargetRow[] {
  return [
    ...appVsBareRows(results),
    profileRow(results),
    workersRow(results),
    searchRow(results, "q: e-mail or name fragment (3+ characters) p50 ≤ 30 ms, exact total_count", "q", (name) => /^q (e-mail|name|common|widest) fragment/.test(name)),
    searchRow(results, "q: exact order number p50 ≤ 5 ms", "q", (name) => name.startsWith("q exact order number")),
    searchRow(results, "Filtered first pages (event_id, is_refunded, dates, combinations) p50 ≤ 30 ms, exact total_count", "filtered", () => true),
    searchRow(results, "Deep pages: any from up to 1,000,000, any sort, p50 ≤ 150 ms", "deep", () => true),
    cursorRow(results),
    rateLimitRow(results),
    ...onSaleRows(results),
    ...webhookRows(results),
    dashboardRow(results),
    ...analyticsRows(results),
  ];
}

export function targetsMarkdown(rows: TargetRow[]): string[] {
  const held = rows.filter((r) => r.holds === true).length;
  const missing = rows.filter((r) => r.value === undefined).length;
  const cell = (text: string) => text.replaceAll("|", "\\|");
  return [
    "# Targets",
    "",
    `Written by \`bench/summary.ts\`, the last step of \`npm run bench\`, from bench/results.json: ${held} of ${rows.length} targets hold, ` +
      `${rows.length - held - missing} do not, ${missing} not measured by any benchmark. "Measured" is when that benchmark last ran; ` +
      "the figures are in the section named, and what was tried for each target in bench/history.md.",
    "",
    "| Issue | Target | Measured value | Holds | Section (`results.json` key) | Measured |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.issue} | ${cell(r.target)} | ${cell(r.value ?? "not measured")} | ${r.value === undefined ? "—" : r.holds ? "yes" : "**no**"} | ${r.section} | ${r.measuredAt?.slice(0, 16).replace("T", " ") ?? ""} |`,
    ),
  ];
}
