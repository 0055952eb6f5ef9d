"use client";

import { useState } from "react";
import { buttonClasses } from "./button-classes";

/** Copies a text to the clipboard and says so (also to screen readers). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className={buttonClasses.secondary}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setStatus("copied");
          } catch {
            setStatus("failed");
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="text-sm text-slate-700">
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed: select the text and copy it" : ""}
      </span>
    </span>
  );
}
