// The model picker, a modal dialog: authenticated providers on the left, their curated models on
// the right, a filter over both, and a typed model id for providers whose models are deployments.
// Escape closes it (the dialog's own cancel) and focus goes back to the Change button.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Auxiliary, ModelOptions, ProviderOption, SetRequest } from './api-types.js';
import type { Assign } from './pages/ModelsPage.js';
import { APPLIES_TO_NEW_SESSIONS } from './changes.js';
import { contextText, priceText } from './format.js';
import { NoCredentials } from './NoCredentials.js';
import { chooseProvider, filterProviders } from './picker-filter.js';

export type PickerTarget =
  | { readonly scope: 'main' }
  | { readonly scope: 'auxiliary'; readonly task: string; readonly name: string };

type Props = {
  readonly target: PickerTarget;
  readonly options: ModelOptions;
  readonly aux: Auxiliary;
  readonly assign: Assign;
  readonly onClose: () => void;
  /** The model marked current, when not the target slot's (a fallback being added: none). */
  readonly current?: { readonly provider: string; readonly model: string };
};

function currentOf(target: PickerTarget, aux: Auxiliary): { provider: string; model: string } {
  if (target.scope === 'main') return aux.main;
  const slot = aux.tasks.find((t) => t.task === target.task);
  return slot && slot.provider !== 'auto' ? slot : aux.main;
}

function requestFor(target: PickerTarget, provider: string, model: string): SetRequest {
  return target.scope === 'main'
    ? { scope: 'main', provider, model }
    : { scope: 'auxiliary', target: { kind: 'one', task: target.task }, provider, model };
}

export function Picker({ target, options, aux, assign, onClose, current: shown }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const filterInput = useRef<HTMLInputElement>(null);
  const busy = useRef(false);
  const ids = useId();
  const current = shown ?? currentOf(target, aux);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string | undefined>(current.provider || undefined);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // No cleanup: unmounting removes the dialog from the page, which ends its modal state.
    if (!element.open) element.showModal();
    filterInput.current?.focus();
  }, []);

  const visible = useMemo(() => filterProviders(options.providers, query), [options.providers, query]);
  const selectedSlug = chooseProvider(visible, chosen);
  const selected = visible.find((v) => v.provider.slug === selectedSlug);

  const pick = async (provider: string, model: string) => {
    if (busy.current) return;
    busy.current = true;
    const failure = await assign(requestFor(target, provider, model));
    busy.current = false;
    if (failure === null) dialog.current?.close();
    else setError(failure);
  };

  const title = target.scope === 'main' ? 'Choose the main model' : `Choose a model for ${target.name}`;

  return (
    <dialog ref={dialog} className="picker" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <div className="picker-head">
        <h2 id={`${ids}-title`}>{title}</h2>
        <button type="button" className="close" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </div>
      <p className="hint">{APPLIES_TO_NEW_SESSIONS}</p>
      {options.providers.length === 0 ? (
        <NoCredentials unauthenticated={options.unauthenticated ?? []} />
      ) : (
        <>
          <label className="filter" htmlFor={`${ids}-filter`}>
            Filter
            <input
              ref={filterInput}
              id={`${ids}-filter`}
              type="text"
              autoComplete="off"
              spellCheck={false}
              placeholder="Provider name, slug or model id"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </label>
          {visible.length === 0 ? (
            <p className="no-match">No provider or model matches “{query.trim()}”.</p>
          ) : (
            <div className="picker-columns">
              <nav className="providers" aria-label="Providers">
                <ul>
                  {visible.map(({ provider, models }) => (
                    <li key={provider.slug}>
                      <button
                        type="button"
                        aria-pressed={provider.slug === selectedSlug}
                        onClick={() => setChosen(provider.slug)}
                      >
                        <span className="provider-name">{provider.name}</span>
                        <span className="provider-meta">
                          {provider.slug}
                          {provider.slug === 'custom'
                            ? ` · your endpoint${provider.models.length > 0 ? ` · ${provider.models.length} models` : ''}`
                            : provider.free_text
                              ? ' · your deployments'
                              : ` · ${models.length} models`}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </nav>
              {selected && (
                <ProviderModels
                  key={selected.provider.slug}
                  provider={selected.provider}
                  models={selected.models}
                  current={current}
                  onPick={(model) => void pick(selected.provider.slug, model)}
                />
              )}
            </div>
          )}
          {error !== null && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </dialog>
  );
}

type ModelsProps = {
  readonly provider: ProviderOption;
  readonly models: readonly string[];
  readonly current: { readonly provider: string; readonly model: string };
  readonly onPick: (model: string) => void;
};

function ProviderModels({ provider, models, current, onPick }: ModelsProps) {
  const ids = useId();
  const onCurrent = current.provider === provider.slug;
  const [typed, setTyped] = useState(onCurrent ? current.model : '');
  const details = new Map((provider.model_details ?? []).map((d) => [d.id, d] as const));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== '') onPick(typed.trim());
  };

  return (
    <section className="models" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{provider.name}</h3>
      {provider.models_error !== undefined && (
        <p className="notice" role="status">
          {provider.models_error}
        </p>
      )}
      {models.length > 0 && (
        <ul>
          {models.map((model) => {
            const detail = details.get(model);
            const meta = [detail?.context_length ? contextText(detail.context_length) : '', priceText(detail)]
              .filter(Boolean)
              .join(' · ');
            const isCurrent = onCurrent && current.model === model;
            return (
              <li key={model}>
                <button type="button" className="model-choice" aria-current={isCurrent || undefined} onClick={() => onPick(model)}>
                  <span className="model-id">{model}</span>
                  {isCurrent && <span className="badge current">current</span>}
                  {meta && <span className="model-meta">{meta}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {provider.free_text && (
        <form className="free-text" onSubmit={submit}>
          <label htmlFor={`${ids}-model`}>{provider.slug === 'cloud-hosted' ? 'Deployment name' : 'Model id'}</label>
          <div className="inline">
            <input
              id={`${ids}-model`}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
            <button type="submit" disabled={typed.trim() === ''}>
              Use
            </button>
          </div>
        </form>
      )}
      {models.length === 0 && !provider.free_text && <p className="hint">No curated models.</p>}
    </section>
  );
}
