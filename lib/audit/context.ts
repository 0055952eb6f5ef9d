import { AsyncLocalStorage } from "node:async_hooks";

/** Who made a change: a dashboard user, an API key, or the operator's tools (the admin CLI, seeding). */
export type AuditActor =
  | { type: "user"; id: string | null; label?: string | null }
  | { type: "api_key"; id: string }
  | { type: "system"; label: string };

/** Where a request came from, as the audit log keeps it. */
export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}

export interface AuditContext extends RequestOrigin {
  actor: AuditActor;
}

/** A domain call with no request around it: the admin CLI, the seed, a test calling the domain directly. */
export const SYSTEM_CONTEXT: AuditContext = { actor: { type: "system", label: "system" }, ipAddress: null, userAgent: null };

// The request's actor and origin, set once where a request enters (the route wrapper, formAction), so domain
// functions record who and from where without every signature carrying them.
const storage = new AsyncLocalStorage<AuditContext>();

export function withAuditContext<T>(context: AuditContext, run: () => T): T {
  return storage.run(context, run);
}

export function currentAuditContext(): AuditContext {
  return storage.getStore() ?? SYSTEM_CONTEXT;
}

const USER_AGENT_MAX = 512;

/**
 * The client's address: the first X-Forwarded-For hop (set by `next start`, or a proxy in front of it), else
 * X-Real-IP. Behind a proxy that does not overwrite X-Forwarded-For a client can choose what is recorded.
 */
export function originOf(headers: Pick<Headers, "get">): RequestOrigin {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || headers.get("x-real-ip")?.trim() || null;
  const userAgent = headers.get("user-agent")?.slice(0, USER_AGENT_MAX) || null;
  // An IPv4 client seen through an IPv6 socket: recorded as the IPv4 address it is.
  return { ipAddress: ip?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1").slice(0, 64) ?? null, userAgent };
}
