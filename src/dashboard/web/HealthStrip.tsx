// The health strip above every page: one line of chips (gateway, listener, each platform, inbox,
// runs, failed deliveries), asked for every 2 s while the tab is visible and not at all while it
// is hidden. A failed call shows a short inline note; the chips of the last answer stay out of it,
// so a stale "running" is never shown as current.
import { useEffect, useState } from 'react';
import type { DashboardApi } from './api.js';
import { fetchHealth, type Health } from './health-api.js';
import { healthChips, TONE_WORDS } from './health-view.js';

export const HEALTH_POLL_MS = 2_000;

/** A function, so TypeScript does not keep the state it read before an await. */
const tabHidden = () => document.visibilityState === 'hidden';

type Shown = { readonly health: Health } | { readonly error: string } | null;

function useHealth(api: DashboardApi): Shown {
  const [shown, setShown] = useState<Shown>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking = false;
    const poll = async () => {
      timer = undefined;
      if (tabHidden()) return; // resumed by visibilitychange
      asking = true;
      const result = await fetchHealth(api);
      asking = false;
      if (stopped) return;
      setShown(result.ok ? { health: result.value } : { error: result.error });
      if (!tabHidden()) timer = setTimeout(() => void poll(), HEALTH_POLL_MS);
    };
    const onVisibility = () => {
      if (!tabHidden() && timer === undefined && !asking) void poll();
    };
    document.addEventListener('visibilitychange', onVisibility);
    void poll();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [api]);
  return shown;
}

export function HealthStrip({ api }: { api: DashboardApi }) {
  const shown = useHealth(api);
  return (
    <section className="health-strip" aria-label="Health">
      {shown === null && <span className="health-loading">health: checking…</span>}
      {shown !== null && 'error' in shown && (
        <span className="health-error" role="alert">
          health unavailable: {shown.error}
        </span>
      )}
      {shown !== null && 'health' in shown && (
        <ul className="health-chips">
          {healthChips(shown.health).map((chip) => (
            <li key={chip.key} className={`health-chip health-${chip.tone}`} title={chip.detail} data-chip={chip.key}>
              <span className="health-dot" aria-hidden="true" />
              {chip.text}
              <span className="visually-hidden">
                {' '}
                ({TONE_WORDS[chip.tone]}: {chip.detail})
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
