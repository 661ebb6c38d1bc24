// The Webhooks page: every route (config.yaml and subscriptions) with its events, filters,
// delivery target, enabled state and last delivery; a form to subscribe a new route, whose secret
// shows once; Remove and Send test event on each subscription. The same library calls as
// `iris webhook subscribe|list|remove|test`.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DashboardApi } from '../api.js';
import { webhooksClient, type Subscribed, type WebhookList } from '../webhooks-api.js';
import { WebhookRow } from '../webhooks-row.js';
import { SecretOnce } from '../webhooks-secret.js';
import { SubscribeRoute } from '../webhooks-subscribe.js';
import { LoadState } from '../load-state.js';

export function WebhooksPage({ api }: { api: DashboardApi; id?: string }) {
  const client = useMemo(() => webhooksClient(api), [api]);
  const [list, setList] = useState<WebhookList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  // The one answer that carried a secret; dropped when the box is closed.
  const [fresh, setFresh] = useState<Subscribed | null>(null);

  const load = useCallback(async () => {
    const result = await client.list();
    if (result.ok) setList(result.value);
    setLoadError(result.ok ? null : result.error);
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const onSubscribed = useCallback(
    (answer: Subscribed) => {
      setFresh(answer.secret === null ? null : answer);
      setStatus(answer.updated ? `Updated route ${answer.name}; its secret is unchanged.` : `Subscribed route ${answer.name}.`);
      void load();
    },
    [load],
  );

  const onRemoved = useCallback(
    (name: string) => {
      setList((old) => old && { ...old, routes: old.routes.filter((route) => route.name !== name) });
      setFresh((old) => (old?.name === name ? null : old));
      setStatus(`Removed route ${name}.`);
      void load();
    },
    [load],
  );

  const routes = list?.routes ?? [];
  return (
    <main className="page webhooks-page">
      <div className="page-head">
        <h1>Webhooks</h1>
        <p className="lede">
          Each route is an address a code host posts signed events to; the gateway runs the agent on each and delivers the answer.
          {list !== null && (
            <>
              {' '}
              Routes are served at <code>{list.listener}/webhooks/&lt;name&gt;</code>.
            </>
          )}
        </p>
      </div>
      <p className="status" role="status">
        {status}
      </p>
      <LoadState what="the routes" error={loadError} loaded={list !== null} onRetry={() => void load()} />
      {list !== null && !list.platform_enabled && (
        <div className="notice" role="note">
          <p>
            The webhook platform is off, so the gateway serves none of these routes. Turn it on with <code>iris config set platforms.webhook.enabled true</code> and restart the gateway.
          </p>
        </div>
      )}
      {list !== null && list.problems.length > 0 && (
        <div className="notice" role="note">
          <p>Some subscriptions could not be read and are not served:</p>
          <ul>
            {list.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {fresh !== null && fresh.secret !== null && <SecretOnce name={fresh.name} url={fresh.url} secret={fresh.secret} onClose={() => setFresh(null)} />}
      {list !== null && (
        <div className="webhooks-layout">
          <section aria-label="Routes">
            {routes.length === 0 ? (
              <p className="panel webhooks-empty">
                No routes yet. Subscribe one with the form (or <code>iris webhook subscribe &lt;name&gt;</code>), put its address and secret in your code host’s webhook settings, then send a test event here.
              </p>
            ) : (
              <ul className="webhooks-routes">
                {routes.map((route) => (
                  <WebhookRow key={route.name} route={route} client={client} onRemoved={onRemoved} onTested={() => void load()} />
                ))}
              </ul>
            )}
          </section>
          <SubscribeRoute client={client} routes={routes} deliverTargets={list.deliver_targets} onSubscribed={onSubscribed} />
        </div>
      )}
    </main>
  );
}
