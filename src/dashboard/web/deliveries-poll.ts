// Live updates for the Deliveries page: asks again every 2 s while the tab is visible (and not at
// all while it is hidden), one call at a time. A failed call shows inline; the last good answer
// stays, so a passing hiccup does not blank the list.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from './api.js';

export const DELIVERIES_POLL_MS = 2_000;

const tabHidden = () => document.visibilityState === 'hidden';

export type Polled<T> = { readonly value: T | null; readonly error: string | null; readonly refresh: () => void };

/** `load` is asked now, then every DELIVERIES_POLL_MS; a new `load` (new filters) starts over. */
export function usePolled<T>(load: () => Promise<ApiResult<T>>): Polled<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const kick = useRef<() => void>(() => undefined);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking = false;
    setValue(null);
    setError(null);
    const poll = async () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (tabHidden() || asking) return;
      asking = true;
      const result = await load();
      asking = false;
      if (stopped) return;
      if (result.ok) {
        setValue(result.value);
        setError(null);
      } else setError(result.error);
      if (!tabHidden()) timer = setTimeout(() => void poll(), DELIVERIES_POLL_MS);
    };
    const onVisibility = () => {
      if (!tabHidden() && timer === undefined && !asking) void poll();
    };
    kick.current = () => void poll();
    document.addEventListener('visibilitychange', onVisibility);
    void poll();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [load]);
  const refresh = useCallback(() => kick.current(), []);
  return { value, error, refresh };
}
