/**
 * Node options of every `next start` server process (`npm start`'s web workers; the benchmarks and tests start
 * theirs with the same). V8 lets the old generation grow up to 4× what survived the last full collection before
 * it collects again; an export that keeps the server busy promotes short-lived page data there faster than
 * that, so the garbage piled up from one export to the next (+49, +95, +128 MB over idle for three exports of
 * 1,000,000 orders in a row). Growing by 20 % makes V8 collect it while the export runs (300,000 orders: old
 * space flat at 42–45 MB instead of climbing to 59 MB; bench/history.md, "Export memory in sequence").
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ["--heap-growing-percent=20"];
