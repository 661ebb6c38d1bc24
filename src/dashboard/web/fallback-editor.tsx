// One fallback list's editor: the entries in the order routing tries them, each with Up, Down and
// Remove, and Add (the model picker). Every edit writes the whole list at once through the page's
// `save` (PUT /api/model/fallbacks…), so what is on screen is what config.yaml holds.
import { useEffect, useRef, useState } from 'react';
import type { FallbackEntry } from './fallback-api.js';
import { applyChainEdit, editDoneText, entryText, hasEntry, type ChainEdit } from './fallback-edits.js';

/** Called with the chosen entry once the picker closes on a model; answers an error or null. */
export type AddEntry = (entry: FallbackEntry) => Promise<string | null>;

type Props = {
  /** `Vision` or `Global`: names the buttons and the messages. */
  readonly label: string;
  readonly chain: readonly FallbackEntry[];
  /** What an empty list means, and what to do. */
  readonly empty: string;
  /** Writes the new list; answers the server's error or null. */
  readonly save: (chain: readonly FallbackEntry[]) => Promise<string | null>;
  /** Opens the model picker; `add` is called with the model chosen there. */
  readonly onAdd: (from: HTMLElement, add: AddEntry) => void;
};

type Focus = { readonly index: number; readonly control: 'up' | 'down' | 'add' };

export function FallbackEditor({ label, chain, empty, save, onAdd }: Props) {
  const list = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const where = `the ${label} fallbacks`;

  // After a move the entry is drawn at its new place: keep the keyboard on its button there, or
  // on the other arrow when it reached an end (the pressed one is disabled then).
  useEffect(() => {
    if (!focus || !list.current) return;
    const at = list.current.querySelector(`[data-index="${focus.index}"]`);
    const wanted = focus.control === 'add' ? list.current.querySelector<HTMLButtonElement>('.add-fallback') : at?.querySelector<HTMLButtonElement>(`.move-${focus.control}`);
    const other = at?.querySelector<HTMLButtonElement>(`.move-${focus.control === 'up' ? 'down' : 'up'}`);
    (wanted && !wanted.disabled ? wanted : other && !other.disabled ? other : list.current.querySelector<HTMLButtonElement>('.add-fallback'))?.focus();
    setFocus(null);
  }, [focus, chain]);

  const apply = async (edit: ChainEdit, after: Focus | null): Promise<string | null> => {
    if (busy.current) return 'Another change is being saved; try again.';
    const next = applyChainEdit(chain, edit);
    if (next === chain) return edit.kind === 'add' ? `${entryText(edit.entry)} is already in ${where}.` : null;
    busy.current = true;
    const failure = await save(next);
    busy.current = false;
    setError(failure);
    setDone(failure === null ? editDoneText(edit, chain, where) : '');
    if (failure === null && after) setFocus(after);
    return failure;
  };

  const add: AddEntry = async (entry) => {
    if (hasEntry(chain, entry)) return `${entryText(entry)} is already in ${where}.`;
    return apply({ kind: 'add', entry }, null);
  };

  return (
    <div className="fallback-editor" ref={list}>
      {chain.length === 0 ? (
        <p className="hint fallback-empty">{empty}</p>
      ) : (
        <ol className="fallback-list" aria-label={`${label} fallbacks, in the order tried`}>
          {chain.map((entry, index) => {
            const text = entryText(entry);
            return (
              <li key={`${index}:${text}`} className="fallback-entry" data-index={index}>
                {/* The list's own numbers are lost to the flex layout; shown here, read from the list. */}
                <span className="fallback-order" aria-hidden="true">
                  {index + 1}.
                </span>
                <span className="fallback-name">{text}</span>
                <span className="fallback-actions">
                  <button type="button" className="move-up" aria-label={`Move ${text} up`} disabled={index === 0} onClick={() => void apply({ kind: 'move', index, by: -1 }, { index: index - 1, control: 'up' })}>
                    Up
                  </button>
                  <button
                    type="button"
                    className="move-down"
                    aria-label={`Move ${text} down`}
                    disabled={index === chain.length - 1}
                    onClick={() => void apply({ kind: 'move', index, by: 1 }, { index: index + 1, control: 'down' })}
                  >
                    Down
                  </button>
                  <button type="button" className="remove" aria-label={`Remove ${text}`} onClick={() => void apply({ kind: 'remove', index }, { index: Math.min(index, chain.length - 2), control: 'up' })}>
                    Remove
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <button type="button" className="secondary add-fallback" onClick={(event) => onAdd(event.currentTarget, add)}>
        Add a {label} fallback
      </button>
      <p className="fallback-done" aria-live="polite">
        {done}
      </p>
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
