import type { Permission } from "@/lib/auth/permissions";

/** The dashboard's sections, in navigation order, each shown to the roles with its page's permission. */
export const SECTIONS = [
  { href: "/overview", label: "Overview", permission: "read" },
  { href: "/api-keys", label: "API keys", permission: "api_keys" },
  { href: "/orders", label: "Orders", permission: "read" },
  { href: "/events", label: "Events", permission: "read" },
  { href: "/venues", label: "Venues", permission: "read" },
  { href: "/integrations", label: "Integrations", permission: "integrations" },
  { href: "/deliveries", label: "Deliveries", permission: "deliveries" },
  { href: "/logs", label: "Logs", permission: "logs" },
  { href: "/members", label: "Members", permission: "members" },
  { href: "/security", label: "Security", permission: "audit" },
  { href: "/account", label: "Account", permission: "account" },
] as const satisfies readonly { href: string; label: string; permission: Permission }[];

/** The section a dashboard path belongs to, if any. */
export function sectionOf(pathname: string) {
  return SECTIONS.find((section) => pathname === section.href || pathname.startsWith(`${section.href}/`));
}
