// The Models page: loads the assignments, provider options, fallback lists and usage, and applies
// every change through POST /api/model/set (or PUT /api/model/fallbacks…), then reads back.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DashboardApi } from '../api.js';
import type { Auxiliary, ModelOptions, SetRequest, StaleAuxSlot, Usage } from '../api-types.js';
import { APPLIES_TO_NEW_SESSIONS, describeChange } from '../changes.js';
import { fallbacksClient, type FallbackEntry, type Fallbacks } from '../fallback-api.js';
import type { AddEntry } from '../fallback-editor.js';
import { ModelCards } from '../ModelCards.js';
import { ModelSettings } from '../ModelSettings.js';
import { Picker, type PickerTarget } from '../Picker.js';

export type Assign = (request: SetRequest) => Promise<string | null>;

type Loaded = { readonly options: ModelOptions; readonly aux: Auxiliary };

type Stale = { readonly main: string; readonly slots: readonly StaleAuxSlot[] };
/**
 * The picker on screen; `opening` counts the opens, so each open mounts a dialog of its own.
 * `add`: the picker chooses a fallback entry instead of assigning the slot.
 */
type OpenPicker = { readonly target: PickerTarget; readonly opening: number; readonly add?: AddEntry };

/** A fallback list to write: an aux task's chain, or (null) the global fallback_providers. */
export type SaveFallbacks = (task: string | null, list: readonly FallbackEntry[]) => Promise<string | null>;
export type OpenFallbackPicker = (name: string, from: HTMLElement, add: AddEntry) => void;

/** What the picker's choice means when it adds a fallback: the entry, never a slot change. */
const NO_CURRENT = { provider: '', model: '' };

export function ModelsPage({ api, hasToken }: { api: DashboardApi; hasToken: boolean }) {
  const [data, setData] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [since, setSince] = useState('7d');
  const [usage, setUsage] = useState<Usage | null>(null);
  const [usageError, setUsageError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [stale, setStale] = useState<Stale | null>(null);
  const [picker, setPicker] = useState<OpenPicker | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const openings = useRef(0);
  const fallbackApi = useMemo(() => fallbacksClient(api), [api]);
  const [fallbacks, setFallbacks] = useState<Fallbacks | null>(null);
  const [fallbacksError, setFallbacksError] = useState<string | null>(null);

  const reloadFallbacks = useCallback(async () => {
    const result = await fallbackApi.list();
    setFallbacks(result.ok ? result.value : null);
    setFallbacksError(result.ok ? null : result.error);
  }, [fallbackApi]);

  useEffect(() => {
    void reloadFallbacks();
  }, [reloadFallbacks]);

  const saveFallbacks: SaveFallbacks = useCallback(
    async (task, list) => {
      const result = task === null ? await fallbackApi.setGlobal(list) : await fallbackApi.setChain(task, list);
      if (!result.ok) return result.error;
      setFallbacks(result.value);
      return null;
    },
    [fallbackApi],
  );

  const reload = useCallback(async () => {
    const [options, aux] = await Promise.all([api.options(), api.auxiliary()]);
    if (!options.ok || !aux.ok) {
      setLoadError(options.ok ? (aux.ok ? null : aux.error) : options.error);
      return;
    }
    setLoadError(null);
    setData({ options: options.value, aux: aux.value });
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    let current = true;
    void api.usage(since === 'all' ? '' : since).then((result) => {
      if (!current) return;
      setUsage(result.ok ? result.value : null);
      setUsageError(result.ok ? null : result.error);
    });
    return () => {
      current = false;
    };
  }, [api, since]);

  const assign: Assign = useCallback(
    async (request) => {
      const result = await api.set(request);
      if (!result.ok) return result.error;
      setStatus(`${describeChange(request, data?.aux ?? null)} ${APPLIES_TO_NEW_SESSIONS}`);
      if (request.scope === 'main') {
        const slots = result.value.stale_aux ?? [];
        setStale(slots.length > 0 ? { main: `${request.provider} · ${request.model}`, slots } : null);
      }
      await reload();
      return null;
    },
    [api, data, reload],
  );

  const openPicker = useCallback((target: PickerTarget, from: HTMLElement) => {
    opener.current = from;
    openings.current += 1;
    setPicker({ target, opening: openings.current });
  }, []);

  const openFallbackPicker: OpenFallbackPicker = useCallback((name, from, add) => {
    opener.current = from;
    openings.current += 1;
    setPicker({ target: { scope: 'auxiliary', task: '', name }, opening: openings.current, add });
  }, []);

  // A dialog's close event is a task queued after it closed, and a busy browser can handle a click
  // on Change first: that click opens a new picker, which the late event must not close.
  const closePicker = useCallback((opening: number) => {
    if (opening !== openings.current) return;
    setPicker(null);
    opener.current?.focus();
  }, []);

  return (
    <>
      <main className="page">
        <div className="page-head">
          <h1>Models</h1>
          <p className="lede">
            One main model answers every message; 11 auxiliary slots take the side-jobs. {APPLIES_TO_NEW_SESSIONS}
          </p>
        </div>
        {!hasToken && (
          <p className="error" role="alert">
            This page has no session token. Open it from the address that <code>iris dashboard</code> prints.
          </p>
        )}
        {loadError !== null && (
          <div className="error load-error" role="alert">
            <p>Could not load the model settings: {loadError}</p>
            <button type="button" onClick={() => void reload()}>
              Try again
            </button>
          </div>
        )}
        {data === null && loadError === null && <p className="loading">Loading…</p>}
        {data !== null && (
          <div className="layout">
            <ModelSettings
              options={data.options}
              aux={data.aux}
              status={status}
              stale={stale}
              onDismissStale={() => setStale(null)}
              onChange={openPicker}
              assign={assign}
              fallbacks={fallbacks}
              fallbacksError={fallbacksError}
              onRetryFallbacks={() => void reloadFallbacks()}
              saveFallbacks={saveFallbacks}
              onAddFallback={openFallbackPicker}
              fallbackApi={fallbackApi}
            />
            <ModelCards
              options={data.options}
              aux={data.aux}
              usage={usage}
              usageError={usageError}
              since={since}
              onSince={setSince}
              assign={assign}
            />
          </div>
        )}
        {data !== null && picker !== null && (
          <Picker
            key={picker.opening}
            target={picker.target}
            options={data.options}
            aux={data.aux}
            assign={picker.add ? fallbackChoice(picker.add) : assign}
            {...(picker.add ? { current: NO_CURRENT } : {})}
            onClose={() => closePicker(picker.opening)}
          />
        )}
      </main>
    </>
  );
}

/** The picker's choice as a new fallback entry (the picker speaks in slot changes). */
function fallbackChoice(add: AddEntry): Assign {
  return (request) => add({ provider: request.provider, model: request.model });
}
