"use client";

import { createContext, useActionState, useCallback, useContext, useEffect, useEffectEvent, useState, type ReactNode } from "react";
import type { FormState } from "@/lib/dashboard/forms";

const NOTICE_MS = 6000;

const AnnounceContext = createContext<(text: string) => void>(() => {});

/**
 * Success notices of the dashboard's actions, shown in one live region that belongs to the layout: it
 * outlives the button that caused it (a revoked key's button, a refunded order's dialog go away).
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<{ text: string; at: number } | null>(null);
  const announce = useCallback((text: string) => setNotice({ text, at: Date.now() }), []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div role="status" aria-live="polite" className="pointer-events-none fixed inset-x-4 bottom-4 z-20 flex justify-center sm:inset-x-auto sm:right-6">
        {notice && (
          <p
            key={notice.at}
            data-testid="notice"
            className="pointer-events-auto rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900 shadow-lg"
          >
            {notice.text}
          </p>
        )}
      </div>
    </AnnounceContext.Provider>
  );
}

const succeeded = (state: FormState) => !state.error && !Object.keys(state.fieldErrors ?? {}).length;

/**
 * `useActionState` for a dashboard form action, announcing the action's success notice as soon as it
 * arrives (the button that caused it may be gone with the revalidated page: a deleted row). `then` runs on
 * every result once it is on screen, with the data the action revalidated (closing a dialog, say).
 */
export function useFormAction<S extends FormState>(
  action: (previous: S, formData: FormData) => Promise<S>,
  initial: S,
  then?: (state: S) => void,
) {
  const announce = useContext(AnnounceContext);
  const [state, dispatch, pending] = useActionState<S, FormData>(async (previous: S, formData: FormData): Promise<S> => {
    const result = await action(previous, formData);
    if (result.notice && succeeded(result)) announce(result.notice);
    return result;
  }, initial as Awaited<S>);
  // The state before any action ran (callers pass a fresh `{}` on every render).
  const [before] = useState(state);
  const settled = useEffectEvent((result: S) => then?.(result));
  // Every action returns a new object, so each result is handled once.
  useEffect(() => {
    if (state !== before) settled(state);
  }, [state, before]);
  return [state, dispatch, pending] as const;
}
