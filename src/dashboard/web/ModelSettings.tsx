// The Model Settings panel: the main row, the global fallback chain, the collapsible auxiliary
// section (one row per slot, each with its own Change, Test and fallback chain) and Reset all to
// auto.
import { useId, useRef, useState } from 'react';
import { type Auxiliary, type ModelOptions, type StaleAuxSlot } from './api-types.js';
import type { FallbacksClient, Fallbacks } from './fallback-api.js';
import { FallbackEditor } from './fallback-editor.js';
import { entryText } from './fallback-edits.js';
import type { Assign, OpenFallbackPicker, SaveFallbacks } from './pages/ModelsPage.js';
import { SlotTestButton } from './slot-test-button.js';
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
  /** null while loading or when the load failed (`fallbacksError`). */
  readonly fallbacks: Fallbacks | null;
  readonly fallbacksError: string | null;
  readonly onRetryFallbacks: () => void;
  readonly saveFallbacks: SaveFallbacks;
  readonly onAddFallback: OpenFallbackPicker;
  readonly fallbackApi: FallbacksClient;
};

const GLOBAL_EMPTY =
  'No global fallbacks yet: when a model is busy or down, Iris goes on to its discovery order (the aggregator’s default, then each provider with a key). Add one to choose where it goes first.';

function fallbackModelText(value: Fallbacks['fallback_model']): string {
  return typeof value === 'string' ? value.replace('/', ' · ') : entryText(value);
}

export function ModelSettings(props: Props) {
  const { options, aux, status, stale, onDismissStale, onChange, assign } = props;
  const { fallbacks, fallbacksError, onRetryFallbacks, saveFallbacks, onAddFallback, fallbackApi } = props;
  const [open, setOpen] = useState(false);
  const [chainsOpen, setChainsOpen] = useState<Readonly<Record<string, boolean>>>({});
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
        <div className="slot-tools">
          <SlotTestButton client={fallbackApi} task="main" name="Main model" />
        </div>
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

      <section className="fallbacks-global" aria-labelledby={`${ids}-fallbacks`}>
        <h3 id={`${ids}-fallbacks`}>Fallback chain</h3>
        <p className="hint">
          Tried in this order by every slot when its own model, and then its own fallbacks, are busy, rate-limited or down.
        </p>
        {fallbacksError !== null && (
          <div className="error" role="alert">
            <p>Could not load the fallback lists: {fallbacksError}</p>
            <button type="button" onClick={onRetryFallbacks}>
              Try again
            </button>
          </div>
        )}
        {fallbacks !== null && (
          <>
            <FallbackEditor
              label="global"
              chain={fallbacks.fallback_providers}
              empty={GLOBAL_EMPTY}
              save={(list) => saveFallbacks(null, list)}
              onAdd={(from, add) => onAddFallback('the global fallback chain', from, add)}
            />
            {fallbacks.fallback_model !== '' && (
              <p className="hint">Then fallback_model: {fallbackModelText(fallbacks.fallback_model)}</p>
            )}
          </>
        )}
      </section>

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
            const chain = fallbacks?.tasks.find((t) => t.task === task.task)?.fallback_chain;
            const chainOpen = chainsOpen[task.task] === true;
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
                <div className="slot-tools">
                  <SlotTestButton client={fallbackApi} task={task.task} name={name} />
                  {chain !== undefined && (
                    <button
                      type="button"
                      className="link chain-toggle"
                      aria-expanded={chainOpen}
                      aria-controls={`${ids}-chain-${task.task}`}
                      aria-label={`${name} fallbacks (${chain.length})`}
                      onClick={() => setChainsOpen((all) => ({ ...all, [task.task]: !chainOpen }))}
                    >
                      Fallbacks ({chain.length})
                    </button>
                  )}
                </div>
                {chain !== undefined && (
                  <div id={`${ids}-chain-${task.task}`} className="slot-chain" hidden={!chainOpen}>
                    <FallbackEditor
                      label={name}
                      chain={chain}
                      empty={`No ${name} fallbacks: when its model is busy or down, the fallback chain above is tried next.`}
                      save={(list) => saveFallbacks(task.task, list)}
                      onAdd={(from, add) => onAddFallback(`a ${name} fallback`, from, add)}
                    />
                  </div>
                )}
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
