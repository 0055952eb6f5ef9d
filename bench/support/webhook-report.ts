import { round } from "./stats";

interface Lag {
  p50_ms: number;
  p99_ms: number;
  missing: number;
}

/**
 * CPU time (user + system, ms) per order of an orders phase, by process: from the phase's start to its last order's
 * answer, or with an integration to its last order's first attempt.
 */
export interface OrderCpu {
  /** `npm start`'s primary and web workers. */
  web: number;
  delivery_worker: number;
  /** The sessions of `npm start`'s processes. */
  postgres: number;
  /** This process: the load generator and the receivers. */
  bench: number;
}

export interface WebhookRound {
  orders_per_second: { no_integration: number; healthy_integration: number; raw_sql: number; beside_dead_receiver: number };
  cpu_ms_per_order?: { no_integration: OrderCpu; healthy_integration: OrderCpu };
  commit_to_first_attempt: Lag;
  delivered_all_after_ms: number;
  deliveries_per_second: number;
  /** The delivery worker's CPU time (user + system) per delivery during the deliveries/s phase. */
  delivery_worker_cpu_ms_per_delivery?: number;
  dead_receiver: {
    api_list_p50_before_ms: number;
    api_list_p50_during_ms: number;
    healthy_commit_to_first_attempt: Lag;
    dead_commit_to_first_attempt: Lag;
    /** Requests the dead receiver got during the `during` probe: its retries were under way. */
    dead_requests_during_probe: number;
  };
}

export interface WebhookBench {
  measured_at: string;
  server_processes: number;
  orders_per_round: number;
  /** Orders of each phase run unmeasured before the first round (absent in runs from before the warm-up). */
  warmup_orders_per_phase?: number;
  concurrency: number;
  backlog: number;
  load_average: number[];
  rounds: WebhookRound[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return round((sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2, 1);
};
const met = (ok: boolean) => (ok ? "met" : "**not met**");

/** The medians over the rounds that the targets of issue 18 are judged on. */
export function webhookMedians(bench: WebhookBench) {
  const of = (pick: (r: WebhookRound) => number) => median(bench.rounds.map(pick));
  const noIntegration = of((r) => r.orders_per_second.no_integration);
  const healthy = of((r) => r.orders_per_second.healthy_integration);
  const rawSql = of((r) => r.orders_per_second.raw_sql);
  const before = of((r) => r.dead_receiver.api_list_p50_before_ms);
  const during = of((r) => r.dead_receiver.api_list_p50_during_ms);
  return {
    noIntegration,
    healthy,
    rawSql,
    rawSqlRatio: round(rawSql / noIntegration, 2),
    integrationCost: round(1 - healthy / noIntegration, 3),
    lagP50: of((r) => r.commit_to_first_attempt.p50_ms),
    lagP99: of((r) => r.commit_to_first_attempt.p99_ms),
    deliveries: of((r) => r.deliveries_per_second),
    workerCpuMs: of((r) => r.delivery_worker_cpu_ms_per_delivery ?? NaN),
    apiBefore: before,
    apiDuring: during,
    apiRatio: round(during / before, 2),
    besideDeadP50: of((r) => r.dead_receiver.healthy_commit_to_first_attempt.p50_ms),
    besideDeadP99: of((r) => r.dead_receiver.healthy_commit_to_first_attempt.p99_ms),
    deadFirstP50: of((r) => r.dead_receiver.dead_commit_to_first_attempt.p50_ms),
  };
}

/** bench/results.md's webhook-delivery section: every round, the medians and which targets hold. */
export function webhookDeliveryMarkdown(bench: WebhookBench): string[] {
  const lines = [
    "# Orders and webhooks benchmark",
    "",
    `\`npx tsx --conditions=react-server bench/webhook-delivery.ts\`: \`npm start\` on PostgreSQL (${bench.server_processes} web processes), ` +
      `${bench.orders_per_round} \`POST /v1/orders\` per phase at concurrency ${bench.concurrency}, local receivers, ${bench.rounds.length} interleaved rounds ` +
      `after a warm-up of ${bench.warmup_orders_per_phase ?? 0} orders per phase, each orders phase started with the delivery worker idle, ` +
      `deliveries/s from a bulk recovery of ${bench.backlog} redeliveries over 4 integrations. Measured ${bench.measured_at}, load average ${bench.load_average.join(", ")}.`,
    "",
    "| Round | orders/s no integration | healthy integration | raw SQL | commit → 1st attempt p50 / p99 (ms) | deliveries/s | worker CPU per delivery (ms) | GET /v1/orders p50 before / during dead (ms) | dead receiver's requests during that probe | other integration's lag beside dead p50 / p99 (ms) | dead's own first attempt p50 (ms) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  bench.rounds.forEach((r, i) => {
    const o = r.orders_per_second;
    const d = r.dead_receiver;
    lines.push(
      `| ${i + 1} | ${o.no_integration} | ${o.healthy_integration} | ${o.raw_sql} | ${r.commit_to_first_attempt.p50_ms} / ${r.commit_to_first_attempt.p99_ms} | ` +
        `${r.deliveries_per_second} | ${r.delivery_worker_cpu_ms_per_delivery ?? ""} | ${d.api_list_p50_before_ms} / ${d.api_list_p50_during_ms} | ${d.dead_requests_during_probe} | ` +
        `${d.healthy_commit_to_first_attempt.p50_ms} / ${d.healthy_commit_to_first_attempt.p99_ms} | ${d.dead_commit_to_first_attempt.p50_ms} |`,
    );
  });
  lines.push("", "Medians over the rounds, against the targets of issue 18:", "", ...webhookVerdicts(bench), ...orderCpuLines(bench));
  return lines;
}

/** One line per target of issue 18: the medians over the rounds, the target, and whether it holds. */
export function webhookVerdicts(bench: WebhookBench): string[] {
  const m = webhookMedians(bench);
  return [
    `- \`POST /v1/orders\` ${m.noIntegration} orders/s, raw SQL ${m.rawSqlRatio}x that (target: within 2x) — ${met(m.rawSqlRatio <= 2)}.`,
    `- A healthy integration: ${m.healthy} orders/s, costs ${round(m.integrationCost * 100, 1)} % (target: at most 25 %) — ${met(m.integrationCost <= 0.25)}.`,
    `- Order commit → first attempt p50 ${m.lagP50} ms, p99 ${m.lagP99} ms (target: p50 ≤ 50 ms) — ${met(m.lagP50 <= 50)}.`,
    `- ${m.deliveries} deliveries/s (target: ≥ 500) — ${met(m.deliveries >= 500)}; the delivery worker used ${m.workerCpuMs} ms of CPU per delivery, ` +
      `${round(1000 / m.workerCpuMs, 0)}/s on one core of its own (≤ 2 ms for 500/s).`,
    `- A receiver answering 500: \`GET /v1/orders\` p50 ${m.apiBefore} ms before, ${m.apiDuring} ms during its retries, ${m.apiRatio}x (target: at most 1.5x) — ${met(m.apiRatio <= 1.5)}; ` +
      `the other integration's first attempts p50 ${m.besideDeadP50} ms, p99 ${m.besideDeadP99} ms behind their orders (target: never more than 1 s) — ${met(m.besideDeadP99 <= 1000)}.`,
  ];
}

/** Where a healthy integration's cost goes: CPU per order by process in the two orders phases, medians over the rounds. */
function orderCpuLines(bench: WebhookBench): string[] {
  const rounds = bench.rounds.flatMap((r) => (r.cpu_ms_per_order ? [r.cpu_ms_per_order] : []));
  if (rounds.length === 0) return [];
  const processes = ["web", "delivery_worker", "postgres", "bench"] as const;
  const row = (label: string, phase: "no_integration" | "healthy_integration") => {
    const cells = processes.map((name) => median(rounds.map((r) => r[phase][name])));
    return `| ${label} | ${cells.join(" | ")} | ${round(cells.reduce((sum, value) => sum + value, 0), 2)} |`;
  };
  return [
    "",
    "CPU time per order by process (user + system from `/proc`, from a phase's start to its last order, with an integration to its last first attempt; medians over the rounds):",
    "",
    "| Orders phase | web processes | delivery worker | PostgreSQL (the app's sessions) | load generator and receivers | all |",
    "|---|---:|---:|---:|---:|---:|",
    row("no integration", "no_integration"),
    row("a healthy integration", "healthy_integration"),
  ];
}
