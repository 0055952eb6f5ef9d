export interface WebhookRun {
  measured_at: string;
  driver: string;
  orders: number;
  mode: string;
  dead_receiver_beside?: boolean;
  deliveries_per_second: number;
  orders_per_second: number;
  completion_to_first_attempt_ms: { p50: number; p95: number; p99: number; max: number };
}

/** bench/results.md's webhook-delivery section from every run in results.json, with the dead-receiver check. */
export function webhookDeliveryMarkdown(runs: Record<string, WebhookRun>, loadAverage: string): string[] {
  const lines = [
    "# Webhook delivery benchmark",
    "",
    `\`npx tsx bench/webhook-delivery.ts\` (in process: createOrder → outbox → embedded engine → local receiver answering 2xx). Load average when written: ${loadAverage}.`,
    "With `--dead-receiver` a second integration's receiver accepts connections and never answers, so every order also queues a delivery behind it; the figures are the healthy receiver's.",
    "",
    "| Run | Measured | Orders | Mode | Orders/s | Deliveries/s | commit → first attempt p50 (ms) | p95 | p99 | max |",
    "|---|---|---:|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [key, run] of Object.entries(runs)) {
    const l = run.completion_to_first_attempt_ms;
    lines.push(
      `| ${key} | ${run.measured_at} | ${run.orders} | ${run.mode} | ${run.orders_per_second} | ${run.deliveries_per_second} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} |`,
    );
  }
  const alone = runs.postgres_saturated;
  const beside = runs.postgres_saturated_beside_dead_receiver;
  if (alone && beside) {
    const ratio = Math.round((beside.completion_to_first_attempt_ms.p99 / alone.completion_to_first_attempt_ms.p99) * 100) / 100;
    lines.push(
      "",
      `Healthy receiver's p99 beside a dead receiver's backlog: ${ratio}x its p99 alone (target: at most 2x) — ${ratio <= 2 ? "met" : "**not met**"}.`,
    );
  }
  return lines;
}
