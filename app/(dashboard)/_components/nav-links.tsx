"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// Orders, Events, Integrations and Deliveries join this list as their pages are built.
const LINKS = [
  { href: "/overview", label: "Overview" },
  { href: "/api-keys", label: "API keys" },
  { href: "/orders", label: "Orders" },
  { href: "/events", label: "Events" },
  { href: "/venues", label: "Venues" },
  { href: "/integrations", label: "Integrations" },
  { href: "/deliveries", label: "Deliveries" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">
      {LINKS.map((link) => {
        const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <li key={link.href}>
            <Link
              href={link.href}
              aria-current={current ? "page" : undefined}
              className={`block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-400 ${
                current ? "bg-slate-700 text-white" : "text-slate-200 hover:bg-slate-800 hover:text-white"
              }`}
            >
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
