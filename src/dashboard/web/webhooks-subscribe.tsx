// The Webhooks page's Subscribe form: a name, the events, a prompt, the delivery target and its
// settings (what `iris webhook subscribe <name> --events … --prompt … --deliver …` takes).
// Subscribing an existing subscription's name updates it and keeps its secret.
import { useId, useState, type FormEvent } from 'react';
import type { Subscribed, WebhookRoute, WebhooksClient } from './webhooks-api.js';
import { EMPTY_FORM, subscribeBody, type SubscribeForm } from './webhooks-view.js';

type Props = {
  readonly client: WebhooksClient;
  readonly routes: readonly WebhookRoute[];
  readonly deliverTargets: readonly string[];
  readonly onSubscribed: (answer: Subscribed) => void;
};

export function SubscribeRoute({ client, routes, deliverTargets, onSubscribed }: Props) {
  const id = useId();
  const [form, setForm] = useState<SubscribeForm>(EMPTY_FORM);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof SubscribeForm) => (event: { target: { value: string } }) => setForm((old) => ({ ...old, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const built = subscribeBody(form, routes);
    if (!built.ok) return setError(built.error);
    setBusy(true);
    setError(null);
    const result = await client.subscribe(built.body);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setForm(EMPTY_FORM);
    onSubscribed(result.value);
  };

  return (
    <form className="panel webhooks-subscribe" onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Subscribe a route</h2>
      <p className="hint">A new address, /webhooks/&lt;name&gt;, with a secret of its own; the running gateway serves it at once.</p>
      <label htmlFor={`${id}-name`}>Name</label>
      <input id={`${id}-name`} type="text" value={form.name} onChange={set('name')} autoComplete="off" spellCheck={false} placeholder="e.g. pr-review" />
      <label htmlFor={`${id}-events`}>Events</label>
      <input id={`${id}-events`} type="text" value={form.events} onChange={set('events')} autoComplete="off" spellCheck={false} placeholder="pull_request, push (empty: all)" aria-describedby={`${id}-events-hint`} />
      <p className="hint" id={`${id}-events-hint`}>
        The code host’s event names, comma-separated; leave empty to take every event.
      </p>
      <label htmlFor={`${id}-prompt`}>Prompt</label>
      <textarea id={`${id}-prompt`} value={form.prompt} onChange={set('prompt')} rows={4} maxLength={20_000} placeholder="Review {pull_request.title} in {repository.full_name}" aria-describedby={`${id}-prompt-hint`} />
      <p className="hint" id={`${id}-prompt-hint`}>
        <code>{'{field.path}'}</code> takes a value from the event; empty uses the event’s default prompt.
      </p>
      <label htmlFor={`${id}-deliver`}>Deliver the answer to</label>
      <select id={`${id}-deliver`} value={form.deliver} onChange={set('deliver')}>
        {deliverTargets.map((target) => (
          <option key={target} value={target}>
            {target}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-extra`}>Delivery settings</label>
      <textarea id={`${id}-extra`} value={form.deliverExtra} onChange={set('deliverExtra')} rows={2} spellCheck={false} placeholder={'repo={repository.full_name}\npr_number={number}'} aria-describedby={`${id}-extra-hint`} />
      <p className="hint" id={`${id}-extra-hint`}>
        <code>key=value</code>, one a line (a forge_comment needs repo and pr_number). Optional for the others.
      </p>
      <div className="webhooks-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Subscribing…' : 'Subscribe'}
        </button>
      </div>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
