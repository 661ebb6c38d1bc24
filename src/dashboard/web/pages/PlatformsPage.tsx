// The Platforms page: one card per enabled chat platform (connection, settings, owners, home
// channel, pairing, Test), the others listed with how to turn them on. It refreshes every few
// seconds, so a code a stranger was just sent shows without a reload.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { platformsClient, type Platforms } from '../platforms-api.js';
import { PlatformCard } from '../platforms-card.js';
import { LoadState } from '../load-state.js';

const REFRESH_MS = 3_000;

export function PlatformsPage({ api }: { api: DashboardApi; id?: string }) {
  const client = useMemo(() => platformsClient(api), [api]);
  const [data, setData] = useState<Platforms | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    const result = await client.list();
    if (result.ok) setData(result.value);
    setLoadError(result.ok ? null : result.error);
  }, [client]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const onChanged = useCallback(
    (message: string) => {
      setStatus(message);
      void load();
    },
    [load],
  );

  const enabled = data?.platforms.filter((p) => p.enabled) ?? [];
  const others = data?.platforms.filter((p) => !p.enabled) ?? [];
  return (
    <main className="page platforms-page">
      <div className="page-head">
        <h1>Platforms</h1>
        <p className="lede">
          The chat platforms Iris talks on. Secrets show only as set or not set.
          {data !== null && (data.gateway.running ? ` The gateway is running (pid ${data.gateway.pid ?? '?'}).` : ' The gateway is not running: start it with iris gateway start.')}
        </p>
      </div>
      <p className="status" role="status">
        {status}
      </p>
      <LoadState what="the platforms" error={loadError} loaded={data !== null} onRetry={() => void load()} />
      {data !== null && enabled.length === 0 && (
        <div className="notice platforms-empty">
          <p>No chat platform is enabled yet.</p>
          <p>
            Run <code>iris setup</code> and pick one, or enable one by hand: <code>iris config set platforms.telegram.enabled true</code> and its token (
            <code>iris config set TELEGRAM_BOT_TOKEN &lt;token&gt;</code>), then <code>iris gateway restart</code>.
          </p>
        </div>
      )}
      {enabled.length > 0 && (
        <ul className="platform-cards" aria-label="Enabled platforms">
          {enabled.map((card) => (
            <PlatformCard key={card.name} card={card} gatewayRunning={data?.gateway.running === true} client={client} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {data !== null && others.length > 0 && (
        <p className="hint platforms-others">
          Not enabled: {others.map((p) => p.name).join(', ')}. Enable one with <code>iris config set platforms.&lt;name&gt;.enabled true</code> (docs/platforms.md).
        </p>
      )}
    </main>
  );
}
