/**
 * Operator CLI: `npm run admin -- <command> [--flag value …]`. Prints JSON on stdout; bad input prints a
 * message on stderr and exits 1. Runs the migrations first, so it works on a fresh database.
 */
import { z } from "zod";
import { closeDatabase, databaseHandle } from "@/db/client";
import { runMigrations } from "@/db/migrator";
import { CURRENCIES, RETRY_SCHEDULES, USER_ROLES, WEBHOOK_EVENT_TYPES } from "@/db/schema";
import { SYSTEM_CONTEXT, withAuditContext } from "@/lib/audit/context";
import { createApiKey, revokeApiKeyById } from "@/lib/auth/api-keys";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import { issueUserToken } from "@/lib/auth/user-token";
import { inviteMember, listMembers, setMemberRole } from "@/lib/auth/members";
import { changePassword, createUser, findUserByEmail } from "@/lib/auth/users";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { ID_PREFIXES, fromPublicId, normalizeUuid, toPublicId, type IdKind } from "@/lib/ids";
import { bulkSeedOrders } from "@/lib/demo/bulk-seed";
import { createOrganization, getOrganization } from "@/lib/organizations/organizations";
import { createIntegration } from "@/lib/webhooks/integrations";
import { refuseIfServerHoldsDatabase } from "./server-pid";

/** A failure the operator caused: printed as is, exit code 1. */
class CliError extends Error {}

/** An id in its public form (`org_…`) or as the bare UUID. */
const publicId = (kind: IdKind) =>
  z.string().transform((text, ctx) => {
    const uuid = fromPublicId(kind, text) ?? normalizeUuid(text);
    if (!uuid) ctx.addIssue({ code: "custom", message: `"${text}" is not a valid id (expected ${ID_PREFIXES[kind]}_…)` });
    return uuid ?? z.NEVER;
  });

const commaList = <T extends string>(allowed: readonly T[], what: string) =>
  z
    .string()
    .transform((text) => [...new Set(text.split(",").map((s) => s.trim()).filter(Boolean))])
    .pipe(
      z
        .array(z.enum(allowed as readonly [T, ...T[]], { error: (i) => `unknown ${what} "${String(i.input)}" (one of ${allowed.join(", ")})` }))
        .min(1, `at least one ${what} is required`),
    );

const role = z.enum(USER_ROLES, { error: (i) => `unknown role "${String(i.input)}" (one of ${USER_ROLES.join(", ")})` });

const newPassword = z.string().min(8, "must be at least 8 characters").max(200);

const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);

async function requireOrganization(id: string) {
  const org = await getOrganization(id);
  if (!org) throw new CliError(`Organization ${toPublicId("organization", id)} not found`);
  return org;
}

interface Command<S extends z.ZodType> {
  usage: string;
  schema: S;
  run(args: z.output<S>): Promise<unknown>;
}

const command = <S extends z.ZodType>(c: Command<S>) => c;

const COMMANDS = {
  "create-org": command({
    usage: "create-org --name N [--currency SEK|EUR|NOK|DKK]",
    schema: z.strictObject({ name: z.string().trim().min(1).max(200), currency: z.enum(CURRENCIES).default("SEK") }),
    async run({ name, currency }) {
      const org = await createOrganization({ name, currency });
      return { id: toPublicId("organization", org.id), name: org.name, currency: org.currency, created_at: org.createdAt.toISOString() };
    },
  }),
  "create-user": command({
    usage: "create-user --org ORG_ID --email E --password P [--role owner|admin|developer|viewer]",
    schema: z.strictObject({
      org: publicId("organization"),
      email: z.email(),
      password: newPassword,
      role: role.optional(),
    }),
    async run({ org, email, password, role }) {
      await requireOrganization(org);
      if (await findUserByEmail(email)) throw new CliError(`A user with the e-mail ${email} already exists`);
      // The first user of an organization has to be able to run it; later ones start with the least.
      const chosen = role ?? ((await listMembers(org)).length === 0 ? "owner" : "viewer");
      const user = await createUser({ organizationId: org, email, password, role: chosen });
      return { id: toPublicId("user", user.id), organization_id: toPublicId("organization", org), email: user.email, role: user.role };
    },
  }),
  "set-role": command({
    usage: "set-role --email E --role owner|admin|developer|viewer",
    schema: z.strictObject({ email: z.email(), role }),
    async run({ email, role }) {
      const user = await findUserByEmail(email);
      if (!user) throw new CliError(`No user with the e-mail ${email}`);
      // The operator may change anyone, but the organization still keeps an owner.
      await setMemberRole(user.organizationId, user.id, role, null);
      return { id: toPublicId("user", user.id), email: user.email, role, sessions_ended: true };
    },
  }),
  invite: command({
    usage: "invite --org ORG_ID --email E [--role owner|admin|developer|viewer]",
    schema: z.strictObject({ org: publicId("organization"), email: z.email(), role: role.default("viewer") }),
    async run({ org, email, role }) {
      await requireOrganization(org);
      const { token, expiresAt } = await inviteMember({ organizationId: org, email, role, actor: null });
      const path = `/invite/${token}`;
      // The only time the link is shown; only its token's hash is stored.
      return { email: email.toLowerCase(), role, path, url: env.PUBLIC_URL ? new URL(path, env.PUBLIC_URL).href : null, expires_at: expiresAt.toISOString() };
    },
  }),
  "set-password": command({
    usage: "set-password --email E --password P",
    schema: z.strictObject({ email: z.email(), password: newPassword }),
    async run({ email, password }) {
      const user = await findUserByEmail(email);
      if (!user) throw new CliError(`No user with the e-mail ${email}`);
      await changePassword(user.id, password);
      // The user's dashboard sessions and user tokens end with the old password.
      return { id: toPublicId("user", user.id), email: user.email, sessions_ended: true };
    },
  }),
  "create-key": command({
    usage: "create-key --org ORG_ID --scopes orders:read,events:write [--rate-limit 600] [--name N]",
    schema: z.strictObject({
      org: publicId("organization"),
      scopes: commaList<Scope>(SCOPES, "scope"),
      "rate-limit": positiveInt(1_000_000).default(60),
      name: z.string().trim().min(1).max(200).default("CLI key"),
    }),
    async run(args) {
      await requireOrganization(args.org);
      const { key, record } = await createApiKey({
        organizationId: args.org,
        name: args.name,
        scopes: args.scopes,
        rateLimitPerMinute: args["rate-limit"],
      });
      return {
        id: toPublicId("apiKey", record.id),
        organization_id: toPublicId("organization", record.organizationId),
        name: record.name,
        // The only time the full key is shown; only its hash is stored.
        key,
        display_prefix: record.displayPrefix,
        scopes: record.scopes,
        rate_limit_per_minute: record.rateLimitPerMinute,
        created_at: record.createdAt.toISOString(),
      };
    },
  }),
  "revoke-key": command({
    usage: "revoke-key --key-id ID",
    schema: z.strictObject({ "key-id": publicId("apiKey") }),
    async run(args) {
      const row = await revokeApiKeyById(args["key-id"]);
      if (!row) throw new CliError(`API key ${toPublicId("apiKey", args["key-id"])} not found or already revoked`);
      return { id: toPublicId("apiKey", row.id), revoked_at: row.revokedAt!.toISOString() };
    },
  }),
  "issue-token": command({
    usage: "issue-token --email E [--ttl-seconds 3600]",
    schema: z.strictObject({ email: z.email(), "ttl-seconds": positiveInt(366 * 24 * 3600).default(3600) }),
    async run(args) {
      const user = await findUserByEmail(args.email);
      if (!user) throw new CliError(`No user with the e-mail ${args.email}`);
      const now = Date.now();
      return {
        token: await issueUserToken(
          { userId: user.id, organizationId: user.organizationId, sessionVersion: user.sessionVersion },
          args["ttl-seconds"],
          now,
        ),
        token_type: "Bearer",
        user_id: toPublicId("user", user.id),
        organization_id: toPublicId("organization", user.organizationId),
        expires_at: new Date(Math.floor(now / 1000) * 1000 + args["ttl-seconds"] * 1000).toISOString(),
      };
    },
  }),
  "create-integration": command({
    usage: "create-integration --org ORG_ID --url U [--events OrderCompleted] [--unsigned] [--retry-schedule immediate|nominal]",
    schema: z.strictObject({
      org: publicId("organization"),
      url: z.string().min(1),
      events: commaList(WEBHOOK_EVENT_TYPES, "event").optional(),
      unsigned: z.literal(true, { error: "takes no value" }).optional(),
      "retry-schedule": z.enum(RETRY_SCHEDULES).optional(),
    }),
    async run(args) {
      await requireOrganization(args.org);
      const integration = await createIntegration({
        organizationId: args.org,
        url: args.url,
        events: args.events,
        signed: !args.unsigned,
        retrySchedule: args["retry-schedule"],
      });
      return { ...integration, organization_id: toPublicId("organization", args.org) };
    },
  }),
  "seed-orders": command({
    usage: "seed-orders --org ORG_ID --count N",
    schema: z.strictObject({ org: publicId("organization"), count: positiveInt(10_000_000) }),
    async run({ org, count }) {
      await requireOrganization(org);
      const started = performance.now();
      const result = await bulkSeedOrders(org, count);
      return {
        organization_id: toPublicId("organization", org),
        inserted: result.inserted,
        first_order_number: result.firstOrderNumber,
        last_order_number: result.lastOrderNumber,
        duration_ms: Math.round(performance.now() - started),
      };
    },
  }),
};

type CommandName = keyof typeof COMMANDS;

const HELP = [
  "Usage: npm run admin -- <command> [options]",
  "",
  "Commands (output is JSON; ids accept the public form, e.g. org_…):",
  ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  "  help",
].join("\n");

/** `--flag value`, `--flag=value`, and bare `--flag` (true). Positional arguments are an error. */
function parseFlags(argv: string[]): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith("--") || token === "--") throw new CliError(`Unexpected argument "${token}"`);
    const eq = token.indexOf("=");
    const name = eq === -1 ? token.slice(2) : token.slice(2, eq);
    if (name in flags) throw new CliError(`--${name} given twice`);
    if (eq !== -1) flags[name] = token.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) flags[name] = argv[++i]!;
    else flags[name] = true;
  }
  return flags;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const flag = issue.path[0];
      if (issue.code === "unrecognized_keys") return `unknown option ${issue.keys.map((k) => `--${k}`).join(", ")}`;
      if (flag === undefined) return issue.message;
      // A missing value reads better than "expected string, received boolean".
      if (issue.code === "invalid_type" && issue.input === true) return `--${String(flag)}: a value is required`;
      if (issue.code === "invalid_type" && issue.input === undefined) return `--${String(flag)} is required`;
      return `--${String(flag)}: ${issue.message}`;
    })
    .join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    console.log(HELP);
    return 0;
  }
  if (!name || !(name in COMMANDS)) {
    console.error(`${name ? `Unknown command "${name}"` : "No command given"}.\n\n${HELP}`);
    return 1;
  }
  const cmd = COMMANDS[name as CommandName] as Command<z.ZodType>;
  let args: unknown;
  try {
    const parsed = cmd.schema.safeParse(parseFlags(rest));
    if (!parsed.success) throw new CliError(describeIssues(parsed.error));
    args = parsed.data;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`${name}: ${error.message}\nUsage: npm run admin -- ${cmd.usage}`);
    return 1;
  }

  refuseIfServerHoldsDatabase();
  try {
    await runMigrations(databaseHandle());
    // The audit log names the operator's changes for what they are: the CLI's, with no user or key.
    const audit = { ...SYSTEM_CONTEXT, actor: { type: "system", label: `admin CLI (${name})` } as const };
    console.log(JSON.stringify(await withAuditContext(audit, () => cmd.run(args)), null, 2));
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ApiError) {
      const details = error instanceof ApiError && error.details?.length
        ? `\n${error.details.map((d) => `  ${d.path}: ${d.message}`).join("\n")}`
        : "";
      console.error(`${name}: ${error.message}${details}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
