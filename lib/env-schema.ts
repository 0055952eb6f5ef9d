/**
 * The environment's schema and parser, without the parsed values: next.config.ts, which Next.js loads
 * outside its server bundles (where `server-only` refuses to load), parses with it too. The app reads
 * the parsed values from lib/env.ts.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A span such as `5d`, `12h`, `30m` or `90s`, in milliseconds. */
const duration = z
  .string()
  .regex(/^\d+[smhd]$/, "must be a whole number followed by s, m, h or d (e.g. 5d)")
  .transform((v) => Number(v.slice(0, -1)) * DURATION_UNIT_MS[v.slice(-1) as keyof typeof DURATION_UNIT_MS]);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default(".data"),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Server processes of `npm start` on PostgreSQL; unset: one per core. PGlite always runs one.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  INNGEST_EVENT_KEY: optionalString,
  INNGEST_SIGNING_KEY: optionalString,
  INNGEST_BASE_URL: optionalString.pipe(z.url().optional()),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  // Where the embedded engine runs webhook deliveries: in this process, or (`worker`, set by `npm start` on
  // PostgreSQL for its web workers) in the delivery worker, to which this process sends events through the database.
  WEBHOOK_DELIVERIES: z.enum(["in-process", "worker"]).default("in-process"),
  // An integration whose deliveries have all failed for this long (and at least 20 in a row) is disabled.
  WEBHOOK_AUTO_DISABLE_AFTER: optionalString.pipe(duration.optional()).transform((v) => v ?? 5 * DURATION_UNIT_MS.d),
  // Finished deliveries and their attempts are deleted after this many days.
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  // Audit log entries are deleted after this many days (a daily cron; the database refuses younger deletions).
  AUDIT_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  // Requests per minute one dashboard user may make to the user-token and session endpoints.
  // Requests made with sk_ keys are logged (lib/request-log) unless this is false, and kept this many days.
  REQUEST_LOG_ENABLED: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  DASHBOARD_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // A separate build directory lets parallel test runs (and their builds) coexist in one checkout.
  NEXT_DIST_DIR: optionalString.pipe(z.string().default(".next")),
});

export type Env = z.infer<typeof schema> & { AUTH_SECRET: string; PGLITE_DIR: string };

/**
 * Without AUTH_SECRET a fresh checkout still has to start, so a random secret is kept beside the
 * embedded database: sessions and the derived demo key then survive restarts.
 */
function localAuthSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": when two processes start at once, the first one's secret wins.
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readFileSync(file, "utf8").trim();
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    ...parsed,
    DATA_DIR: dataDir,
    PGLITE_DIR: path.join(dataDir, "pglite"),
    AUTH_SECRET: parsed.AUTH_SECRET ?? localAuthSecret(dataDir),
  };
}
