"use client";

import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { SECTIONS, sectionOf } from "./sections-list";

const linkClass = "flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-400";

/** A spinner beside a link whose page is on its way (sections without a loading page show nothing else). */
function Pending() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      className={`size-3 rounded-full border-2 border-slate-400 border-t-white ${pending ? "animate-spin" : "invisible"}`}
    />
  );
}

/** Every section, wrapping onto more rows on a phone rather than scrolling out of sight; then the API reference. */
export function NavLinks() {
  const current = sectionOf(usePathname() ?? "");
  return (
    <ul className="flex flex-wrap gap-1 md:flex-col">
      {SECTIONS.map((link) => (
        <li key={link.href}>
          <Link
            href={link.href}
            aria-current={current?.href === link.href ? "page" : undefined}
            className={`${linkClass} ${current?.href === link.href ? "bg-slate-700 text-white" : "text-slate-200 hover:bg-slate-800 hover:text-white"}`}
          >
            {link.label}
            <Pending />
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
