// The Model Settings panel: the main row, the collapsible auxiliary section (one row per slot,
// each with its own Change) and Reset all to auto.
import { useId, useRef, useState } from 'react';
import { type Auxiliary, type ModelOptions, type StaleAuxSlot } from './api-types.js';
import type { Assign } from './App.js';
import { stillStale, taskName } from './changes.js';
import { assignmentText, isAuto } from './format.js';
import { NoCredentials } from './NoCredentials.js';
import type { PickerTarget } from './Picker.js';

type Props = {
  readonly options: ModelOptions;
  readonly aux: Auxiliary;
  /** What the last change did; shown here, in view beside the cards, and announced. */
  readonly status: string;
  readonly stale: { readonly main: string; readonly slots: readonly StaleAuxSlot[] } | null;
  readonly onDismissStale: () => void;
  readonly onChange: (target: PickerTarget, from: HTMLElement) => void;
  readonly assign: Assign;
};

export function ModelSettings({ options, aux, status, stale, onDismissStale, onChange, assign }: Props) {
  const [open, setOpen] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const resetting = useRef(false);
  const disclosure = useRef<HTMLButtonElement>(null);
  const ids = useId();
  const pinnedCount = aux.tasks.filter((t) => !isAuto(t)).length;
  const staleSlots = stale ? stillStale(stale.slots, aux) : [];
  const mainSet = aux.main.provider !== '' && aux.main.model !== '';

  const reset = async () => {
    if (resetting.current) return;
    resetting.current = true;
    setResetError(await assign({ scope: 'auxiliary', target: { kind: 'reset' }, provider: '', model: '' }));
    resetting.current = false;
  };

  return (
    <section className="panel settings" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Model Settings</h2>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      {options.providers.length === 0 && <NoCredentials unauthenticated={options.unauthenticated ?? []} />}
      <div className="slot-row main-row" data-slot="main">
        <span className="slot-name">Main model</span>
        <span className="slot-value">
          {mainSet ? assignmentText(aux.main) : 'not configured'}
        </span>
        <button
          type="button"
          className="change"
          aria-label="Change main model"
          onClick={(event) => onChange({ scope: 'main' }, event.currentTarget)}
        >
          Change
        </button>
      </div>

      {staleSlots.length > 0 && stale && (
        <section className="notice stale" aria-labelledby={`${ids}-stale`}>
          <p id={`${ids}-stale`}>
            The main model is now {stale.main}. These auxiliary slots stay pinned to another provider:
          </p>
          <ul>
            {staleSlots.map((slot) => (
              <li key={slot.task}>
                <strong>{taskName(aux, slot.task)}</strong> — {assignmentText(slot)}
              </li>
            ))}
          </ul>
          <p className="hint">Use Reset all to auto to make them follow the main model.</p>
          <button
            type="button"
            className="link"
            onClick={() => {
              onDismissStale();
              // The button goes away with the notice: keep the keyboard user's place.
              disclosure.current?.focus();
            }}
          >
            Dismiss
          </button>
        </section>
      )}

      <h3 className="disclosure-heading">
        <button
          ref={disclosure}
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={`${ids}-aux`}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="chevron" aria-hidden="true" />
          Auxiliary models
          <span className="count">
            {pinnedCount === 0 ? 'all auto' : `${pinnedCount} of ${aux.tasks.length} set`}
          </span>
        </button>
      </h3>
      <div id={`${ids}-aux`} className="aux-slots" hidden={!open}>
        <p className="hint">A slot on auto uses the main model.</p>
        <ul className="slot-list">
          {aux.tasks.map((task) => {
            const name = task.name ?? task.task;
            return (
              <li key={task.task} className="slot-row" data-slot={task.task}>
                <span className="slot-name">{name}</span>
                <span className={`slot-value${isAuto(task) ? ' auto' : ''}`}>
                  {assignmentText(task)}
                </span>
                <button
                  type="button"
                  className="change"
                  aria-label={`Change ${name} model`}
                  onClick={(event) => onChange({ scope: 'auxiliary', task: task.task, name }, event.currentTarget)}
                >
                  Change
                </button>
              </li>
            );
          })}
        </ul>
        <button type="button" className="secondary" onClick={() => void reset()}>
          Reset all to auto
        </button>
        {resetError !== null && (
          <p className="error" role="alert">
            {resetError}
          </p>
        )}
      </div>
    </section>
  );
}
