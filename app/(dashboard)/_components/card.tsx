import type { ReactNode } from "react";

/** The white, bordered panel every dashboard section sits in. */
export const cardClasses = "rounded-xl border border-slate-200 bg-white shadow-sm";

/**
 * A dashboard section as a card, named by its heading (`labelledBy`); `padded` for content that is not a
 * full-width table.
 */
export function Card({
  labelledBy,
  padded = false,
  className = "",
  testId,
  children,
}: {
  labelledBy?: string;
  padded?: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={labelledBy} data-testid={testId} className={`${cardClasses} ${padded ? "p-4 sm:p-6" : ""} ${className}`}>
      {children}
    </section>
  );
}
