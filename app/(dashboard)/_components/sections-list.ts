/** The dashboard's sections, in navigation order. */
export const SECTIONS = [
  { href: "/overview", label: "Overview" },
  { href: "/api-keys", label: "API keys" },
  { href: "/orders", label: "Orders" },
  { href: "/events", label: "Events" },
  { href: "/venues", label: "Venues" },
  { href: "/integrations", label: "Integrations" },
  { href: "/deliveries", label: "Deliveries" },
] as const;

/** The section a dashboard path belongs to, if any. */
export function sectionOf(pathname: string) {
  return SECTIONS.find((section) => pathname === section.href || pathname.startsWith(`${section.href}/`));
}
