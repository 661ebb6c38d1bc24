// Changing which model serves which slot: the one library behind `iris model set`, `iris model
// aux …` and the dashboard's POST /api/model/set, so the two can never disagree. Each change is an
// edit of the config Document (comments and unknown keys kept), applied under the store's lock.
// Changes apply to new sessions: running sessions hold their own RoutingSnapshot.
import { isMap, isScalar } from 'yaml';
import type { Result } from '../config/result.js';
import type { ConfigDocument } from '../config/yaml-document.js';
import { setScalarIn } from '../config/yaml-document.js';
import { isProviderId } from '../domain/provider-ids.js';
import type { AuxTarget } from '../domain/assignment.js';
import { AUX_TASK_IDS, isAuxTaskId, type AuxTaskId } from '../domain/slots.js';

export type StaleAux = { readonly task: AuxTaskId; readonly provider: string; readonly model: string };

/** Where a custom (or self-hosted) endpoint is, and which variable holds its key; both optional. */
export type EndpointSettings = { readonly baseUrl?: string; readonly keyEnv?: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A problem with `--base-url` / `--key-env`, or undefined. */
export function endpointProblem(endpoint: EndpointSettings): string | undefined {
  if (endpoint.baseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint.baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `the base URL must be an http(s) URL (got "${endpoint.baseUrl}")`;
  }
  if (endpoint.keyEnv !== undefined && !ENV_NAME.test(endpoint.keyEnv)) return `the key variable must be a variable name (got "${endpoint.keyEnv}")`;
  return undefined;
}

/** Writes the endpoint settings under `at` (`['model']`, `['auxiliary', 'vision']`). */
function setEndpoint(doc: ConfigDocument, at: readonly string[], endpoint: EndpointSettings): Result<object> {
  if (endpoint.baseUrl !== undefined) {
    const set = setScalarIn(doc, [...at, 'base_url'], endpoint.baseUrl);
    if (!set.ok) return set;
  }
  if (endpoint.keyEnv !== undefined) {
    const set = setScalarIn(doc, [...at, 'key_env'], endpoint.keyEnv);
    if (!set.ok) return set;
  }
  return { ok: true };
}

export type MainChange = {
  readonly previous: { readonly provider: string; readonly model: string };
  readonly provider: string;
  readonly model: string;
  /** Keys removed because they described the previous provider or model. */
  readonly dropped: readonly string[];
  /** Keys set to '' (base_url on a provider switch). */
  readonly cleared: readonly string[];
  /** Aux slots pinned to a provider other than the new main one. */
  readonly staleAux: readonly StaleAux[];
};

export type AuxChange = {
  readonly tasks: readonly AuxTaskId[];
  /** Per task, the fields cleared because they belonged to the slot's previous provider. */
  readonly cleared: Readonly<Partial<Record<AuxTaskId, readonly string[]>>>;
  readonly provider: string;
  readonly model: string;
  readonly reset: boolean;
};

type Json = Record<string, unknown>;

function invalid(message: string): { ok: false; error: { code: 'invalid_value'; message: string } } {
  return { ok: false, error: { code: 'invalid_value', message } };
}

function plain(doc: ConfigDocument): Json {
  const data = doc.toJS() as unknown;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Json) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Aux slots that will not simply follow the new main model: pinned to another provider, or on
 * `auto` with a model of their own (which now runs on the new main provider).
 */
export function staleAuxFor(data: Json, mainProvider: string): StaleAux[] {
  const aux = (data.auxiliary ?? {}) as Record<string, Json | undefined>;
  return AUX_TASK_IDS.flatMap((task) => {
    const provider = str(aux[task]?.provider).trim();
    const model = str(aux[task]?.model).trim();
    const auto = provider === '' || provider === 'auto';
    if (auto ? model === '' : provider === mainProvider) return [];
    return [{ task, provider: auto ? 'auto' : provider, model }];
  });
}

function deleteModelKey(doc: ConfigDocument, key: string): boolean {
  const model = doc.get('model', true);
  if (!isMap(model) || !model.has(key)) return false;
  model.delete(key);
  return true;
}

export function setMainModel(doc: ConfigDocument, provider: string, model: string, endpoint: EndpointSettings = {}): Result<MainChange> {
  const p = provider.trim();
  const m = model.trim();
  if (!p || !m) return invalid('the main model needs a provider and a model');
  if (!isProviderId(p)) return invalid(`unknown provider "${p}"`);
  const badEndpoint = endpointProblem(endpoint);
  if (badEndpoint) return invalid(badEndpoint);
  const before = plain(doc).model;
  const previous =
    before !== null && typeof before === 'object'
      ? { provider: str((before as Json).provider), model: str((before as Json).default) || str((before as Json).model) }
      : { provider: '', model: '' };

  for (const [key, value] of [['provider', p], ['default', m]] as const) {
    const set = setScalarIn(doc, ['model', key], value);
    if (!set.ok) return set;
  }
  const dropped: string[] = [];
  const cleared: string[] = [];
  const providerChanged = previous.provider !== '' && previous.provider !== p;
  if (providerChanged) {
    const baseUrl = doc.getIn(['model', 'base_url'], true);
    if (!isScalar(baseUrl) || baseUrl.value !== '') {
      setScalarIn(doc, ['model', 'base_url'], '');
      cleared.push('model.base_url');
    }
    // The wire format and the auth mode belong to the old provider.
    for (const key of ['api_mode', 'auth_mode', 'identity', 'key_env']) if (deleteModelKey(doc, key)) dropped.push(`model.${key}`);
  }
  if ((providerChanged || previous.model !== m) && deleteModelKey(doc, 'context_length')) dropped.push('model.context_length');
  // An older picker's `model.model` would otherwise keep naming the previous model.
  if (deleteModelKey(doc, 'model')) dropped.push('model.model');
  // Given last, so a provider switch's clearing does not undo them.
  const placed = setEndpoint(doc, ['model'], endpoint);
  if (!placed.ok) return placed;
  if (endpoint.baseUrl !== undefined) {
    const at = cleared.indexOf('model.base_url');
    if (at >= 0) cleared.splice(at, 1);
  }
  if (endpoint.keyEnv !== undefined) {
    const at = dropped.indexOf('model.key_env');
    if (at >= 0) dropped.splice(at, 1);
  }
  return { ok: true, previous, provider: p, model: m, dropped, cleared, staleAux: staleAuxFor(plain(doc), p) };
}

/** One aux slot, all 11, or (`reset`) all 11 back on `auto`. */
export function setAuxModel(doc: ConfigDocument, target: AuxTarget, provider: string, model: string, endpoint: EndpointSettings = {}): Result<AuxChange> {
  if (target.kind === 'reset') {
    for (const id of AUX_TASK_IDS) {
      for (const [key, value] of [['provider', 'auto'], ['model', '']] as const) {
        const set = setScalarIn(doc, ['auxiliary', id, key], value);
        if (!set.ok) return set;
      }
    }
    return { ok: true, tasks: AUX_TASK_IDS, cleared: {}, provider: 'auto', model: '', reset: true };
  }
  if (target.kind === 'one' && !isAuxTaskId(target.task)) return invalid(`unknown task "${target.task}" (tasks: ${AUX_TASK_IDS.join(', ')})`);
  const p = provider.trim();
  const m = model.trim();
  if (!p) return invalid('an auxiliary assignment needs a provider');
  if (p !== 'auto' && !isProviderId(p)) return invalid(`unknown provider "${p}"`);
  const badEndpoint = endpointProblem(endpoint);
  if (badEndpoint) return invalid(badEndpoint);
  if (p === 'auto' && (endpoint.baseUrl !== undefined || endpoint.keyEnv !== undefined)) {
    return invalid('an auto slot follows the main model and its endpoint; name a provider to give the slot its own base URL or key variable');
  }
  const tasks: readonly AuxTaskId[] = target.kind === 'all' ? AUX_TASK_IDS : [target.task as AuxTaskId];
  const before = (plain(doc).auxiliary ?? {}) as Record<string, Json | undefined>;
  const cleared: Partial<Record<AuxTaskId, string[]>> = {};
  for (const id of tasks) {
    for (const [key, value] of [['provider', p], ['model', m]] as const) {
      const set = setScalarIn(doc, ['auxiliary', id, key], value);
      if (!set.ok) return set;
    }
    // A key, endpoint or wire format set for the old provider must not follow the slot to a new
    // one (an OpenAI key sent to another host).
    const old = str(before[id]?.provider).trim();
    if (old !== p) {
      const gone: string[] = [];
      for (const key of ['api_key', 'base_url']) {
        const value = before[id]?.[key];
        if (typeof value === 'string' && value !== '') {
          setScalarIn(doc, ['auxiliary', id, key], '');
          gone.push(key);
        }
      }
      const node = doc.getIn(['auxiliary', id], true);
      for (const key of ['key_env', 'api_mode']) {
        if (isMap(node) && node.has(key)) {
          node.delete(key);
          gone.push(key);
        }
      }
      if (gone.length) cleared[id] = gone.filter((key) => !(key === 'base_url' && endpoint.baseUrl !== undefined) && !(key === 'key_env' && endpoint.keyEnv !== undefined));
      if (cleared[id]?.length === 0) delete cleared[id];
    }
    const placed = setEndpoint(doc, ['auxiliary', id], endpoint);
    if (!placed.ok) return placed;
  }
  return { ok: true, tasks, cleared, provider: p, model: m, reset: false };
}
