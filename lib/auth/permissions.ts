/**
 * Dashboard roles and what each may do: the one table every surface checks (formAction specs,
 * requireSession for pages, the `dashboard` access of /webhooks operations). A new page, action or
 * endpoint names a permission here; a new kind of work gets a new permission with its roles.
 */
// The roles file only: the navigation (a client component) checks this table too, without the table definitions.
import { USER_ROLES, type Role } from "@/db/schema/roles";

export type { Role };

const ALL: readonly Role[] = USER_ROLES;
const MANAGERS: readonly Role[] = ["owner", "admin"];
const TECHNICAL: readonly Role[] = ["owner", "admin", "developer"];

export const PERMISSIONS = {
  /** Overview, orders, events, venues: reading, never a secret, a key or a payload. */
  read: ALL,
  /** Own account: changing one's own password, leaving the organization. */
  account: ALL,
  /** Creating, editing and deleting events, ticket types and venues. */
  catalog: MANAGERS,
  /** Refunding orders. */
  refunds: MANAGERS,
  /** API keys and dashboard user tokens. */
  api_keys: TECHNICAL,
  /** Webhook integrations and their signing secrets. */
  integrations: TECHNICAL,
  /** Webhook deliveries: their payloads, redelivery, recovery. */
  deliveries: TECHNICAL,
  /** The request log: every sk_ request with its body (redacted), searchable by trace id. */
  logs: TECHNICAL,
  /** Members: inviting, re-roling, removing (admins never touch owners, see lib/auth/members). */
  members: MANAGERS,
  /** The Security page: the organization's audit log. */
  audit: MANAGERS,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The dashboard's and the API's wording for a refusal. */
export function forbiddenMessage(role: Role, permission: Permission): string {
  return `Your role (${role}) does not allow this: it needs ${PERMISSIONS[permission].join(" or ")}`;
}
