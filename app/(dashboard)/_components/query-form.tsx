"use client";

import { useRouter } from "next/navigation";
import { useTransition, type FormEvent, type ReactNode } from "react";

/**
 * A GET form that puts only the fields that have a value in the URL (`?event_type=OrderCompleted`, not
 * `?integration_id=&order_id=&…`), so a filtered list's address says what it filters. Without JavaScript it
 * submits as a plain GET form, which the lists read the same way.
 */
export function QueryForm({ action, className, children }: { action: string; className?: string; children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "") params.append(name, value);
    }
    const query = params.toString();
    startTransition(() => router.push(query ? `${action}?${query}` : action));
  };
  return (
    <form method="get" action={action} onSubmit={submit} className={className} aria-busy={pending}>
      {children}
    </form>
  );
}
