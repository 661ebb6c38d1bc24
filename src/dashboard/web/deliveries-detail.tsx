// One event on the Deliveries page (`#/deliveries/<id>`): its state and timings, where the answer
// went, the prompt the run was given, the answer, a review's findings, and the Redeliver and
// Re-run buttons, each behind an in-page confirm. Updated every 2 s while visible, so a
// redelivery or a run under way shows its progress without a reload.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DeliveriesApi, DeliveryDetail, Finding, Review } from './deliveries-api.js';
import { StateBadge } from './deliveries-parts.js';
import { usePolled } from './deliveries-poll.js';
import { actionsFor, attemptsText, durationText, timeText } from './deliveries-view.js';
import { hrefOf } from './nav.js';

type Action = 'redeliver' | 'rerun';
type Done = { readonly text: string; readonly link?: { readonly href: string; readonly label: string } };

const CONFIRM: Record<Action, { readonly question: (id: number) => string; readonly yes: string; readonly busy: string }> = {
  redeliver: {
    question: (id) => `Deliver event #${id}'s stored answer again? The agent does not run; the answer goes to the route's target once more (a PR gets another comment).`,
    yes: 'Redeliver',
    busy: 'Redelivering…',
  },
  rerun: {
    question: (id) => `Run event #${id} again as a new event? The agent runs on the same payload, and its new answer is delivered.`,
    yes: 'Re-run',
    busy: 'Starting…',
  },
};

export function DeliveryDetailView({ deliveries, id }: { deliveries: DeliveriesApi; id: string }) {
  const load = useCallback(() => deliveries.detail(id), [deliveries, id]);
  const { value: detail, error, refresh } = usePolled(load);
  return (
    <>
      <p>
        <a href={hrefOf({ page: 'deliveries' })}>← All events</a>
      </p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {detail === null && error === null && <p className="loading">Loading event #{id}…</p>}
      {detail !== null && <Detail deliveries={deliveries} detail={detail} onChanged={refresh} />}
    </>
  );
}

function Detail({ deliveries, detail, onChanged }: { deliveries: DeliveriesApi; detail: DeliveryDetail; onChanged: () => void }) {
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const actions = actionsFor(detail);

  async function act(action: Action) {
    setBusy(true);
    setFailure(null);
    const result = action === 'redeliver' ? await deliveries.redeliver(detail.id) : await deliveries.rerun(detail.id);
    setBusy(false);
    setConfirming(null);
    if (!result.ok) return setFailure(result.error);
    if (action === 'redeliver') setDone({ text: 'Put back for delivery: the running gateway delivers the stored answer within a few seconds.' });
    else if ('rerun_of' in result.value) {
      const newId = result.value.id;
      setDone({ text: `Started a new run as event #${newId}.`, link: { href: hrefOf({ page: 'deliveries', id: String(newId) }), label: `Open event #${newId}` } });
    }
    onChanged();
  }

  return (
    <article className="delivery-detail" aria-labelledby="delivery-title">
      <div className="delivery-head">
        <h1 id="delivery-title">
          Event #{detail.id} <span className="delivery-sub">{detail.event} on {detail.route}</span>
        </h1>
        <StateBadge state={detail.state} />
      </div>
      <p className="delivery-outcome" aria-live="polite">
        {detail.outcome}
      </p>
      <dl className="delivery-meta">
        <dt>Received</dt>
        <dd>{timeText(detail.received_at)} UTC</dd>
        <dt>Last change</dt>
        <dd>
          {timeText(detail.updated_at)} UTC ({durationText(detail.received_at, detail.updated_at)} after it arrived)
        </dd>
        <dt>Attempts</dt>
        <dd>{attemptsText(detail)}</dd>
        <dt>Target</dt>
        <dd>{detail.deliver ?? 'unknown (the stored route cannot be read)'}</dd>
        <dt>Delivery id</dt>
        <dd>
          <code>{detail.delivery_id}</code>
        </dd>
        <dt>Session</dt>
        <dd>{detail.session === null ? 'none yet' : <a href={hrefOf({ page: 'sessions', id: detail.session })}>{detail.session}</a>}</dd>
        {detail.reason !== null && (
          <>
            <dt>Reason</dt>
            <dd>{detail.reason}</dd>
          </>
        )}
      </dl>

      <div className="delivery-actions">
        {confirming === null ? (
          <>
            <button type="button" disabled={!actions.redeliver || busy} onClick={() => setConfirming('redeliver')} title={actions.redeliver ? undefined : 'Needs a stored answer and no delivery under way'}>
              Redeliver
            </button>
            <button type="button" className="secondary" disabled={!actions.rerun || busy} onClick={() => setConfirming('rerun')} title={actions.rerun ? undefined : 'Possible once the event has finished'}>
              Re-run
            </button>
          </>
        ) : (
          <Confirm action={confirming} id={detail.id} busy={busy} onYes={() => void act(confirming)} onNo={() => setConfirming(null)} />
        )}
      </div>
      {failure !== null && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      {done !== null && (
        <p className="done" role="status">
          {done.text} {done.link && <a href={done.link.href}>{done.link.label}</a>}
        </p>
      )}

      <section className="delivery-section" aria-labelledby="delivery-prompt">
        <h2 id="delivery-prompt">Prompt</h2>
        {detail.prompt === null ? <p className="hint">The stored payload or route cannot be read, so the prompt cannot be shown.</p> : <pre className="delivery-text">{detail.prompt}</pre>}
      </section>
      <section className="delivery-section" aria-labelledby="delivery-answer">
        <h2 id="delivery-answer">Answer</h2>
        {detail.answer === null ? <p className="hint">No answer yet{detail.state === 'failed' || detail.state === 'skipped' ? ' (and none will come: see the outcome above)' : ''}.</p> : <pre className="delivery-text">{detail.answer}</pre>}
      </section>
      {detail.review !== undefined && <ReviewFindings review={detail.review} />}
    </article>
  );
}

function Confirm({ action, id, busy, onYes, onNo }: { action: Action; id: number; busy: boolean; onYes: () => void; onNo: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const words = CONFIRM[action];
  return (
    <div className="notice delivery-confirm" role="group" aria-label={`${words.yes} event #${id}?`}>
      <p>{words.question(id)}</p>
      <div className="delivery-confirm-buttons">
        <button type="button" onClick={onYes} disabled={busy}>
          {busy ? words.busy : `Yes, ${words.yes.toLowerCase()}`}
        </button>
        <button type="button" className="secondary" ref={cancel} onClick={onNo} onKeyDown={(event) => event.key === 'Escape' && onNo()} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function FindingList({ title, findings }: { title: string; findings: ReadonlyArray<Finding & { state?: string; note?: string }> }) {
  if (findings.length === 0) return null;
  return (
    <>
      <h3>
        {title} ({findings.length})
      </h3>
      <ul className="delivery-findings">
        {findings.map((f, index) => (
          <li key={`${f.path}:${f.line}:${index}`}>
            <span className={`delivery-severity delivery-severity-${f.severity === 'high' || f.severity === 'critical' ? 'high' : 'other'}`}>{f.severity}</span>{' '}
            <code>
              {f.path}:{f.line}
            </code>{' '}
            {f.title}
            {f.state !== undefined && <span className="hint"> ({f.state})</span>}
            {f.note !== undefined && <span className="hint"> ({f.note})</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function ReviewFindings({ review }: { review: Review }) {
  const none = review.inline.length + review.in_summary.length + review.repeats.length + review.outdated.length === 0;
  return (
    <section className="delivery-section" aria-labelledby="delivery-review">
      <h2 id="delivery-review">Review findings</h2>
      {review.unreadable && <p className="hint">The answer could not be read as findings; it was posted as the summary alone.</p>}
      {none && !review.unreadable && <p className="hint">No findings.</p>}
      <FindingList title="On their lines" findings={review.inline} />
      <FindingList title="In the summary" findings={review.in_summary} />
      <FindingList title="Raised before, not posted again" findings={review.repeats} />
      <FindingList title="Outdated (threads resolved)" findings={review.outdated} />
    </section>
  );
}
