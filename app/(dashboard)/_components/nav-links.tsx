"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { can, type Role } from "@/lib/auth/permissions";
import { LinkPending } from "./pending-link";
import { SECTIONS, sectionOf } from "./sections-list";

const linkClass = "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-400";

/**
 * The sections the role may open, wrapping onto more rows on a phone rather than scrolling out of sight;
 * then the API reference. Hiding is for clarity: each page checks the role itself.
 */
export function NavLinks({ role }: { role: Role }) {
  const current = sectionOf(usePathname() ?? "");
  return (
    <ul className="flex flex-wrap gap-1 md:flex-col">
      {SECTIONS.filter((link) => can(role, link.permission)).map((link) => (
        <li key={link.href}>
          <Link
            href={link.href}
            aria-current={current?.href === link.href ? "page" : undefined}
            className={`${linkClass} ${current?.href === link.href ? "bg-slate-700 text-white" : "text-slate-200 hover:bg-slate-800 hover:text-white"}`}
          >
            {link.label}
            <LinkPending />
          </Link>
        </li>
      ))}
      <li className="md:mt-2 md:border-t md:border-slate-700 md:pt-2">
        <a href="/docs/api" className={`${linkClass} text-slate-200 hover:bg-slate-800 hover:text-white`}>
          API reference
        </a>
      </li>
    </ul>
  );
}
