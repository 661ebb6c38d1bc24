// One card's drawer (`#/kanban/<id>`): its title, body, parent and children, a Move to… list, and
// Specify / Decompose, which ask their slots; each shows its result, or the slot's refusal, here.
import { useEffect, useRef, useState } from 'react';
import type { Card, KanbanApi } from './kanban-api.js';
import { COLUMN_LABELS, COLUMNS, isColumn, timeText, type Column } from './kanban-board.js';
import type { MoveRequest } from './kanban-columns.js';
import { hrefOf } from './nav.js';

type Outcome = { readonly kind: 'done'; readonly text: string } | { readonly kind: 'error'; readonly text: string };
type Refining = 'specify' | 'decompose';

const boardHref = hrefOf({ page: 'kanban' });
const cardHref = (id: number) => hrefOf({ page: 'kanban', id: String(id) });

function CardLink({ id, title, status }: { id: number; title: string; status: string }) {
  return (
    <>
      <a href={cardHref(id)}>
        #{id} {title}
      </a>{' '}
      <span className="kanban-status">{isColumn(status) ? COLUMN_LABELS[status] : status}</span>
    </>
  );
}

export function KanbanDrawer({ client, id, version, moving, onMove, onChanged }: {
  client: KanbanApi;
  id: number;
  /** Bumped whenever the board changed, so the card is read again. */
  version: number;
  moving: boolean;
  onMove: MoveRequest;
  onChanged: () => void;
}) {
  const [card, setCard] = useState<Card | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Refining | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    void client.card(id).then((result) => {
      if (!live) return;
      if (result.ok) {
        setCard(result.value);
        setLoadError(null);
      } else {
        setCard(null);
        setLoadError(result.error);
      }
    });
    return () => {
      live = false;
    };
  }, [client, id, version]);

  // A newly opened card takes the focus; Escape goes back to the board.
  useEffect(() => {
    setOutcome(null);
    heading.current?.focus();
  }, [id]);
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') window.location.hash = boardHref;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const refine = async (what: Refining) => {
    setBusy(what);
    setOutcome(null);
    if (what === 'specify') {
      const result = await client.specify(id);
      setOutcome(result.ok ? { kind: 'done', text: `Specified: “${result.value.title}” is now in To do.` } : { kind: 'error', text: result.error });
    } else {
      const result = await client.decompose(id);
      setOutcome(
        result.ok
          ? { kind: 'done', text: `Split into ${result.value.children.length} cards in To do: ${result.value.children.map((child) => `#${child.id} ${child.title}`).join(', ')}.` }
          : { kind: 'error', text: result.error },
      );
    }
    setBusy(null);
    onChanged();
  };

  return (
    <aside className="kanban-drawer panel" aria-labelledby="kanban-drawer-title" aria-busy={busy !== null}>
      <div className="kanban-drawer-head">
        <h2 id="kanban-drawer-title" ref={heading} tabIndex={-1}>
          {card ? `#${card.id} ${card.title}` : `Card #${id}`}
        </h2>
        <a className="kanban-drawer-close" href={boardHref} aria-label="Close the card">
          Close
        </a>
      </div>
      {loadError !== null && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {card && (
        <>
          <div className="kanban-drawer-actions">
            <label>
              Move to…
              <select
                value={card.status}
                disabled={moving}
                onChange={(event) => {
                  const to = event.target.value;
                  if (isColumn(to)) onMove(card.id, to, 'keyboard');
                }}
              >
                {COLUMNS.map((column: Column) => (
                  <option key={column} value={column}>
                    {COLUMN_LABELS[column]}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" disabled={busy !== null} onClick={() => void refine('specify')}>
              {busy === 'specify' ? 'Specifying…' : 'Specify'}
            </button>
            <button type="button" disabled={busy !== null} onClick={() => void refine('decompose')}>
              {busy === 'decompose' ? 'Decomposing…' : 'Decompose'}
            </button>
          </div>
          <p className="hint">Specify asks the triage_specifier slot to write the spec (the card moves to To do); Decompose asks the kanban_decomposer slot for 2–8 subtasks.</p>
          <div className="kanban-outcome" aria-live="polite">
            {outcome?.kind === 'done' && <p className="done kanban-result">{outcome.text}</p>}
            {outcome?.kind === 'error' && (
              <p className="error kanban-error" role="alert">
                {outcome.text}
              </p>
            )}
          </div>
          <h3>Details</h3>
          {card.body === '' ? <p className="hint">No details yet: Specify writes a spec from the title.</p> : <div className="kanban-body">{card.body}</div>}
          <dl className="kanban-facts">
            <dt>Parent</dt>
            <dd>{card.parent ? <CardLink id={card.parent.id} title={card.parent.title} status={card.parent.status} /> : 'none'}</dd>
            <dt>Created</dt>
            <dd>{timeText(card.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{timeText(card.updated_at)}</dd>
          </dl>
          <h3>Subtasks</h3>
          {card.children.length === 0 ? (
            <p className="hint">None: Decompose splits this card into subtasks.</p>
          ) : (
            <ul className="kanban-children">
              {card.children.map((child) => (
                <li key={child.id}>
                  <CardLink id={child.id} title={child.title} status={child.status} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </aside>
  );
}
