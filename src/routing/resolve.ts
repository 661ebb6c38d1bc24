// Which models may serve a slot, in order, and why each is there. One pure function from
// (config, environment, slot) to candidates, so the CLI's `status --deep`, the dashboard and the
// agent all see the same answer.
//
// Order: the slot's own route (for an `auto` aux slot, the main model), then the slot's
// `fallback_chain`, then the top-level `fallback_providers` and `fallback_model`, then discovery:
// the aggregator's default, then every other authenticated provider's default. No repeats. A
// first route with no credential is kept (marked unusable, for status) and the aggregator's
// default is put right behind it, with a warning naming the slot and the missing variable.
import { hasUsableOAuth, NO_OAUTH, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import { resolveModelRef, splitProviderModel } from '../config/model-ref.js';
import type { Config, FallbackEntry } from '../config/schema.js';
import { PROVIDERS, providerSpec } from '../providers/catalog.js';
import { isAuthenticated, resolveCredential } from '../providers/credentials.js';
import { AGGREGATOR } from '../domain/provider-ids.js';
import type { ProviderRoute } from '../providers/route.js';
import { splitExtraBody } from '../providers/extra-body.js';
import { AUX_TASK_IDS, type AuxTaskId } from '../domain/slots.js';
import { NO_MAIN_MODEL } from '../domain/setup-hint.js';

export type SlotId = 'main' | AuxTaskId;

export const SLOT_IDS: readonly SlotId[] = ['main', ...AUX_TASK_IDS];

export type CandidateReason =
  | 'main'
  | 'auto'
  | 'task'
  | 'aggregator_default'
  | 'task_fallback_chain'
  | 'fallback_providers'
  | 'fallback_model'
  | 'discovery';

export type Candidate = ProviderRoute & {
  readonly reason: CandidateReason;
  /** Plain words for `iris status --deep`. */
  readonly why: string;
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** The aux slot's `timeout`, as a cap on one attempt. */
  readonly timeoutMs?: number;
  /** Why this candidate cannot be called (kept so that status can show it). */
  readonly unusable?: UnusableReason;
};

/** Why a route cannot be called; `message` is the plain words status and the logs show. */
export type UnusableReason =
  | { readonly code: 'unknown_provider'; readonly message: string }
  | { readonly code: 'no_endpoint'; readonly message: string }
  /** `missing`: the variable that would hold the key, when the provider has one. */
  | { readonly code: 'no_credential'; readonly message: string; readonly missing?: string }
  | { readonly code: 'oauth_expired'; readonly message: string };

export type ResolveWarningCode = 'no_credential' | 'no_main_model' | 'no_model' | 'extra_body_ignored';

export type ResolveWarning = {
  readonly slot: SlotId;
  readonly code: ResolveWarningCode;
  readonly message: string;
  readonly missing?: string;
};

/** An aux slot on `auto` with no model of its own runs on the main model. */
export function isAutoSlot(task: { readonly provider: string; readonly model: string }): boolean {
  const provider = task.provider.trim();
  return (provider === 'auto' || provider === '') && task.model.trim() === '';
}

export type Resolution = {
  readonly slot: SlotId;
  readonly candidates: readonly Candidate[];
  readonly warnings: readonly ResolveWarning[];
};

type Cfg = Readonly<Config>;

/** The main model as configured (alias-resolved), or undefined while `model: ''`. */
export function mainRoute(config: Cfg): ProviderRoute | undefined {
  const m = config.model;
  if (m === '') return undefined;
  const name = (m.default || m.model || '').trim();
  if (!name) return undefined;
  const ref = resolveModelRef(name, config);
  // A user alias or a built-in short name may point elsewhere; a plain id stays on model.provider
  // (aggregator ids such as `anthropic/claude-…` contain a slash but are not provider refs).
  const aliased = ref.source === 'model_aliases' || ref.source === 'model.aliases' || ref.source === 'builtin';
  const provider = (aliased ? ref.provider : undefined) ?? m.provider;
  if (!provider) return undefined;
  const sameProvider = provider === m.provider;
  const baseUrl = aliased && ref.base_url ? ref.base_url : sameProvider ? m.base_url : undefined;
  return {
    provider,
    model: aliased ? ref.model : name,
    ...(baseUrl ? { baseUrl } : {}),
    ...(sameProvider && m.api_mode ? { apiMode: m.api_mode } : {}),
    ...(sameProvider && m.key_env ? { keyEnv: m.key_env } : {}),
    ...(sameProvider && m.auth_mode ? { authMode: m.auth_mode } : {}),
    ...(sameProvider && m.identity?.scope ? { identityScope: m.identity.scope } : {}),
  };
}

function fromEntry(entry: FallbackEntry | string): ProviderRoute | undefined {
  if (typeof entry === 'string') {
    const split = splitProviderModel(entry);
    return split ? { provider: split.provider, model: split.model } : undefined;
  }
  return {
    provider: entry.provider,
    model: entry.model,
    ...(entry.base_url ? { baseUrl: entry.base_url } : {}),
    ...(entry.key_env ? { keyEnv: entry.key_env } : {}),
    ...(entry.api_mode ? { apiMode: entry.api_mode } : {}),
  };
}

function aggregatorDefault(): ProviderRoute {
  return { provider: AGGREGATOR, model: providerSpec(AGGREGATOR)?.defaultModel ?? '' };
}

function label(route: ProviderRoute): string {
  return `${route.provider} · ${route.model}`;
}

function unusableReason(route: ProviderRoute, env: Env, oauth: OAuthView): UnusableReason | undefined {
  const spec = providerSpec(route.provider);
  if (!spec) return { code: 'unknown_provider', message: `unknown provider "${route.provider}"` };
  const hasEndpoint = Boolean(route.baseUrl?.trim() || spec.defaultBaseUrl || (spec.baseUrlEnv && env[spec.baseUrlEnv]?.trim()));
  if (!hasEndpoint) {
    return { code: 'no_endpoint', message: `no endpoint URL (set base_url${spec.baseUrlEnv ? ` or ${spec.baseUrlEnv}` : ''})` };
  }
  if (isAuthenticated(route, env, hasUsableOAuth(oauth, route.provider))) return undefined;
  if (oauth.has(route.provider)) {
    return { code: 'oauth_expired', message: `no credential (the OAuth sign-in has expired: run iris auth login ${route.provider})` };
  }
  const credential = resolveCredential(route, env);
  return credential.kind === 'none' && credential.missing
    ? { code: 'no_credential', message: `no credential (set ${credential.missing})`, missing: credential.missing }
    : { code: 'no_credential', message: 'no credential' };
}

/** The slot's own route: for aux slots, the explicit provider/model or `auto` → main. */
function ownRoute(config: Cfg, slot: SlotId): { route?: ProviderRoute; reason: CandidateReason; why: string; extra?: Partial<Candidate> } {
  const main = mainRoute(config);
  if (slot === 'main') return { ...(main ? { route: main } : {}), reason: 'main', why: 'the main model (model.provider / model.default)' };
  const task = config.auxiliary[slot];
  const extra: Partial<Candidate> = {
    ...(Object.keys(task.extra_body).length ? { extraBody: task.extra_body } : {}),
    timeoutMs: task.timeout * 1000,
  };
  const provider = task.provider.trim();
  const model = task.model.trim();
  if (isAutoSlot(task)) {
    return { ...(main ? { route: main } : {}), reason: 'auto', why: `auxiliary.${slot} is auto: the main model`, extra };
  }
  const onProvider = provider === 'auto' || provider === '' ? main?.provider : provider;
  if (!onProvider) return { reason: 'task', why: `auxiliary.${slot} names a model but no provider, and no main model is set`, extra };
  const chosenModel = model || providerSpec(onProvider)?.defaultModel || '';
  return {
    route: {
      provider: onProvider,
      model: chosenModel,
      ...(task.base_url ? { baseUrl: task.base_url } : onProvider === main?.provider && main.baseUrl ? { baseUrl: main.baseUrl } : {}),
      ...(task.api_key ? { apiKey: task.api_key } : {}),
      ...(task.key_env ? { keyEnv: task.key_env } : {}),
      ...(task.api_mode ? { apiMode: task.api_mode } : {}),
    },
    reason: 'task',
    why: `auxiliary.${slot} sets ${onProvider} · ${chosenModel || '(no model)'}`,
    extra,
  };
}

/** `oauth`: the providers signed in with `iris auth login` (they count as authenticated). */
export function resolveCandidates(config: Cfg, env: Env, slot: SlotId, oauth: OAuthView = NO_OAUTH): Resolution {
  const candidates: Candidate[] = [];
  const warnings: ResolveWarning[] = [];
  const seen = new Set<string>();
  const add = (route: ProviderRoute | undefined, reason: CandidateReason, why: string, extra: Partial<Candidate> = {}): boolean => {
    if (!route || !route.model) return false;
    const key = `${route.provider}\u0000${route.model}\u0000${route.baseUrl ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const unusable = unusableReason(route, env, oauth);
    candidates.push({ ...route, ...extra, reason, why, ...(unusable ? { unusable } : {}) });
    return true;
  };

  const own = ownRoute(config, slot);
  if (own.route?.model) {
    add(own.route, own.reason, own.why, own.extra);
    const first = candidates[0];
    if (first?.unusable) {
      const missing = first.unusable.code === 'no_credential' ? first.unusable.missing : undefined;
      const fallback = aggregatorDefault();
      const fallbackProblem = unusableReason(fallback, env, oauth)?.message;
      const isSame = fallback.provider === first.provider && fallback.model === first.model;
      const then = isSame
        ? 'trying the fallback chain and discovery'
        : fallbackProblem
          ? `the aggregator default ${label(fallback)} has ${fallbackProblem} too: trying the fallback chain and discovery`
          : `using the aggregator default ${label(fallback)}`;
      warnings.push({
        slot,
        code: 'no_credential',
        message: `${slot}: ${label(first)} has ${first.unusable.message}; ${then}`,
        ...(missing ? { missing } : {}),
      });
      add(fallback, 'aggregator_default', `${first.provider} has ${first.unusable.message}`, own.extra);
    }
  } else if (own.route && slot !== 'main') {
    warnings.push({
      slot,
      code: 'no_model',
      message: `${slot}: auxiliary.${slot} names ${own.route.provider} but no model, and ${own.route.provider} has no default model; set auxiliary.${slot}.model`,
    });
  } else if (slot === 'main' || own.reason === 'auto') {
    warnings.push({ slot, code: 'no_main_model', message: `${slot}: ${NO_MAIN_MODEL}` });
  }

  const ignored = splitExtraBody(own.extra?.extraBody).ignored;
  if (ignored.length > 0) {
    warnings.push({
      slot,
      code: 'extra_body_ignored',
      message: `${slot}: auxiliary.${slot}.extra_body sets ${ignored.join(', ')}, which Iris sets itself; ignored (extra_body is for the provider's own settings, such as temperature)`,
    });
  }

  // Fallbacks inherit the slot's extra_body and timeout: they serve the same side-job.
  const inherit = own.extra ?? {};
  if (slot !== 'main') {
    config.auxiliary[slot].fallback_chain.forEach((entry, i) =>
      add(fromEntry(entry), 'task_fallback_chain', `auxiliary.${slot}.fallback_chain[${i}]`, inherit),
    );
  }
  config.fallback_providers.forEach((entry, i) => add(fromEntry(entry), 'fallback_providers', `fallback_providers[${i}]`, inherit));
  if (config.fallback_model !== '') add(fromEntry(config.fallback_model), 'fallback_model', 'fallback_model', inherit);
  add(aggregatorDefault(), 'discovery', 'discovery: the aggregator default', inherit);
  for (const spec of PROVIDERS) {
    if (spec.id === AGGREGATOR || !spec.defaultModel) continue;
    const route: ProviderRoute = { provider: spec.id, model: spec.defaultModel };
    if (isAuthenticated(route, env, hasUsableOAuth(oauth, spec.id))) add(route, 'discovery', `discovery: ${spec.id} is authenticated`, inherit);
  }
  return { slot, candidates, warnings };
}
