// One route on the Webhooks page: where it listens, its events, filters and delivery target,
// whether it has a secret (never the secret), its last delivery (a link to the Deliveries page),
// and for a subscription Send test event and Remove, which asks first.
import { useEffect, useRef, useState } from 'react';
import type { WebhookRoute, WebhooksClient } from './webhooks-api.js';
import { eventsText, filtersText, lastDeliveryView, targetText, testResultText, whyNoTest } from './webhooks-view.js';

type Props = {
  readonly route: WebhookRoute;
  readonly client: WebhooksClient;
  readonly onRemoved: (name: string) => void;
  /** A test event was accepted: the page reloads to show its delivery. */
  readonly onTested: () => void;
};

function RemoveConfirm({ name, busy, onRemove, onCancel }: { name: string; busy: boolean; onRemove: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="notice webhooks-confirm" role="group" aria-label={`Remove route ${name}?`}>
      <p>
        Remove route <strong>{name}</strong>? Its address stops answering at once and its secret is gone; events the code host still sends are refused. Its past deliveries stay.
      </p>
      <div className="webhooks-actions">
        <button type="button" className="danger" onClick={onRemove} disabled={busy}>
          {busy ? 'Removing…' : `Remove ${name}`}
        </button>
        <button type="button" ref={cancel} onClick={onCancel} onKeyDown={(event) => event.key === 'Escape' && onCancel()} disabled={busy}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export function WebhookRow({ route, client, onRemoved, onTested }: Props) {
  const [busy, setBusy] = useState<null | 'test' | 'remove'>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState('');
  const removeButton = useRef<HTMLButtonElement>(null);
  const last = lastDeliveryView(route);
  const filters = filtersText(route.filters);
  const noTest = whyNoTest(route);

  const test = async () => {
    setBusy('test');
    setError(null);
    setTested('');
    const result = await client.test(route.name);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    setTested(testResultText(result.value));
    onTested();
  };

  const remove = async () => {
    setBusy('remove');
    setError(null);
    const result = await client.remove(route.name);
    setBusy(null);
    if (!result.ok) return setError(result.error);
    setConfirming(false);
    onRemoved(route.name);
  };

  return (
    <li className="webhooks-route" data-route={route.name} aria-label={`Route ${route.name}`}>
      <div className="webhooks-route-head">
        <h2>{route.name}</h2>
        <span className={`badge webhooks-source-${route.source}`}>{route.source === 'config' ? 'config.yaml' : 'subscription'}</span>
        <span className={`badge ${route.enabled ? 'webhooks-on' : 'webhooks-off'}`}>{route.enabled ? 'enabled' : 'disabled'}</span>
        {!route.has_secret && <span className="badge webhooks-off">no secret</span>}
        {route.source === 'subscription' && (
          <div className="webhooks-actions webhooks-head-actions">
            <button type="button" onClick={() => void test()} disabled={busy !== null} aria-label={`Send a test event to ${route.name}`}>
              {busy === 'test' ? 'Sending…' : 'Send test event'}
            </button>
            {!confirming && (
              <button type="button" ref={removeButton} className="danger" onClick={() => setConfirming(true)} disabled={busy !== null} aria-label={`Remove route ${route.name}`}>
                Remove
              </button>
            )}
          </div>
        )}
      </div>
      <dl className="webhooks-facts">
        <dt>Address</dt>
        <dd>
          <code>POST {route.url}</code>
        </dd>
        <dt>Events</dt>
        <dd>{eventsText(route.events)}</dd>
        <dt>Filters</dt>
        <dd>{filters === '' ? <span className="webhooks-muted">none</span> : filters}</dd>
        <dt>Delivers to</dt>
        <dd>
          <code>{targetText(route.deliver, route.deliver_extra)}</code>
        </dd>
        <dt>Secret</dt>
        <dd>{route.has_secret ? 'set' : 'not set: events are refused until it has one'}</dd>
        <dt>Last delivery</dt>
        <dd>
          {last.href === null ? (
            <span className="webhooks-muted">{last.label}</span>
          ) : (
            <>
              <a href={last.href} className="webhooks-last">
                {last.label}
              </a>{' '}
              <span className="webhooks-muted">{last.when}</span>
            </>
          )}
        </dd>
      </dl>
      {noTest !== undefined && <p className="hint">{noTest}</p>}
      {confirming && (
        <RemoveConfirm
          name={route.name}
          busy={busy === 'remove'}
          onRemove={() => void remove()}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => removeButton.current?.focus());
          }}
        />
      )}
      <p className="done webhooks-tested" role="status">
        {tested}
      </p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
