// What `iris status` reports, as plain data: the route of the main model and of each auxiliary
// slot, the credential state of every provider a route or a configured fallback names, the
// gateway state and the resolution warnings. Pure: the CLI reads the config, the environment and
// the pid file, and prints what this returns (as text or JSON). No secret value is ever copied
// in: credentials are described by kind and by the variable they come from.
import { hasUsableOAuth, NO_OAUTH, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { redactText } from '../log/redact.js';
import { providerSpec } from '../providers/catalog.js';
import { resolveCredential } from '../providers/credentials.js';
import type { EndpointResult } from '../providers/endpoint.js';
import type { ProviderRoute } from '../providers/route.js';
import type { ApiMode } from '../providers/wire/types.js';
import { resolveCandidates, SLOT_IDS, type Candidate, type CandidateReason, type Resolution, type SlotId } from './resolve.js';
import { AUX_TASKS } from '../domain/slots.js';

export type CandidateStatus = {
  readonly provider: string;
  readonly model: string;
  readonly reason: CandidateReason;
  readonly why: string;
  readonly usable: boolean;
  /** Why it cannot be called (no credential, no endpoint URL, unknown provider). */
  readonly unusable?: string;
  /** The api mode a call would use; differs from `configured_api_mode` on an automatic switch. */
  readonly api_mode?: ApiMode;
  readonly configured_api_mode?: ApiMode;
  /** The base URL a call would use: no query string, no credentials. */
  readonly base_url?: string;
  readonly notes?: readonly string[];
  /** The endpoint cannot be planned (usable by credential, but no or a bad base URL). */
  readonly endpoint_error?: string;
};

export type SlotStatus = {
  readonly task: SlotId;
  readonly name: string;
  /** An aux slot on `auto` (the main model); always false for main. */
  readonly auto: boolean;
  /** The slot's own route; null when it has none (no main model yet). */
  readonly provider: string | null;
  readonly model: string | null;
  /** Set when the slot's own route cannot be called (its fallbacks serve instead). */
  readonly unusable?: string;
  /** Only with `--deep`: every candidate, in the order they are tried. */
  readonly candidates?: readonly CandidateStatus[];
};

export type ProviderStatus = {
  readonly provider: string;
  readonly credential: 'api_key' | 'identity_token' | 'oauth_token' | 'none';
  /** Where an API key comes from: a variable name, or `config` (an aux slot's `api_key`). */
  readonly source?: string;
  readonly scope?: string;
  /** The variable that would hold the missing key. */
  readonly missing?: string;
  readonly usable: boolean;
  /** One line for people, e.g. `api key from OPENROUTER_API_KEY`. */
  readonly detail: string;
};

export type GatewayStatus =
  | { readonly state: 'running'; readonly pid: number; readonly pid_file: string }
  | { readonly state: 'not_running'; readonly pid_file: string }
  | { readonly state: 'stale_pid_file'; readonly pid: number; readonly pid_file: string }
  | { readonly state: 'bad_pid_file'; readonly pid_file: string };

/** Resolution warnings, one per distinct message, naming every slot it concerns. */
export type StatusWarning = { readonly slots: readonly SlotId[]; readonly message: string; readonly missing?: string };

export type StatusReport = {
  readonly main: SlotStatus;
  readonly slots: readonly SlotStatus[];
  readonly providers: readonly ProviderStatus[];
  readonly gateway: GatewayStatus;
  readonly warnings: readonly StatusWarning[];
};

export const MAIN_DISPLAY_NAME = 'Main';

/** The reasons that put a slot's own route first. */
const OWN_REASONS: ReadonlySet<CandidateReason> = new Set(['main', 'auto', 'task']);

/** Configured routes (own or fallback), as opposed to what discovery adds on its own. */
const CONFIGURED_REASONS: ReadonlySet<CandidateReason> = new Set([
  'main',
  'auto',
  'task',
  'aggregator_default',
  'task_fallback_chain',
  'fallback_providers',
  'fallback_model',
]);

/**
 * What the pid file says about the gateway. `pidText` undefined: there is no file. `isAlive`
 * answers for a positive integer pid.
 */
export function gatewayStatus(pidFile: string, pidText: string | undefined, isAlive: (pid: number) => boolean): GatewayStatus {
  if (pidText === undefined) return { state: 'not_running', pid_file: pidFile };
  const trimmed = pidText.trim();
  const pid = /^\d{1,10}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(pid) || pid <= 0) return { state: 'bad_pid_file', pid_file: pidFile };
  return isAlive(pid) ? { state: 'running', pid, pid_file: pidFile } : { state: 'stale_pid_file', pid, pid_file: pidFile };
}

function isAutoSlot(config: Readonly<Config>, slot: SlotId): boolean {
  if (slot === 'main') return false;
  const task = config.auxiliary[slot];
  const provider = task.provider.trim();
  return (provider === 'auto' || provider === '') && task.model.trim() === '';
}

function displayName(slot: SlotId): string {
  return slot === 'main' ? MAIN_DISPLAY_NAME : (AUX_TASKS.find((t) => t.id === slot)?.name ?? slot);
}

/** `planEndpoint` from src/providers/endpoint.ts, passed in so that plain `iris status` need not load it. */
export type EndpointPlanner = (route: ProviderRoute, env: Env) => EndpointResult;

function candidateStatus(candidate: Candidate, env: Env, planEndpoint: EndpointPlanner): CandidateStatus {
  const base = { provider: candidate.provider, model: candidate.model, reason: candidate.reason, why: candidate.why };
  if (candidate.unusable) return { ...base, usable: false, unusable: candidate.unusable.message };
  const plan = planEndpoint(candidate, env);
  if (!plan.ok) return { ...base, usable: true, endpoint_error: redactText(plan.error.message) };
  return {
    ...base,
    usable: true,
    api_mode: plan.apiMode,
    configured_api_mode: plan.configuredApiMode,
    base_url: plan.baseUrl,
    notes: plan.notes,
  };
}

function slotStatus(config: Readonly<Config>, env: Env, resolution: Resolution, planner: EndpointPlanner | undefined): SlotStatus {
  const first = resolution.candidates[0];
  const own = first && OWN_REASONS.has(first.reason) ? first : undefined;
  return {
    task: resolution.slot,
    name: displayName(resolution.slot),
    auto: isAutoSlot(config, resolution.slot),
    provider: own?.provider ?? null,
    model: own?.model ?? null,
    ...(own?.unusable ? { unusable: own.unusable.message } : {}),
    ...(planner ? { candidates: resolution.candidates.map((c) => candidateStatus(c, env, planner)) } : {}),
  };
}

/** An auto slot's first candidate is the main model's own route, reached through `auto`. */
const asMain = (reason: CandidateReason): CandidateReason => (reason === 'auto' ? 'main' : reason);

function sameCandidate(a: CandidateStatus, b: CandidateStatus): boolean {
  // `why` is left out: it names the slot ("auxiliary.vision is auto: …") even where the route is the same.
  return (
    a.provider === b.provider &&
    a.model === b.model &&
    asMain(a.reason) === asMain(b.reason) &&
    a.usable === b.usable &&
    a.unusable === b.unusable &&
    a.api_mode === b.api_mode &&
    a.configured_api_mode === b.configured_api_mode &&
    a.base_url === b.base_url &&
    a.endpoint_error === b.endpoint_error &&
    (a.notes ?? []).join('\n') === (b.notes ?? []).join('\n')
  );
}

/**
 * An aux slot that simply follows the main model: on auto, with exactly the main model's
 * candidates (no fallback chain of its own). Needs the candidates (`--deep`); without them
 * nothing can be said, so the answer is no.
 */
export function followsMain(main: SlotStatus, slot: SlotStatus): boolean {
  if (!slot.auto || !main.candidates || !slot.candidates) return false;
  const mine = slot.candidates;
  return main.candidates.length === mine.length && main.candidates.every((c, i) => sameCandidate(c, mine[i] as CandidateStatus));
}

function providerStatus(candidate: Candidate, env: Env, oauth: OAuthView): ProviderStatus {
  const usable = !candidate.unusable;
  const credential = resolveCredential(candidate, env, hasUsableOAuth(oauth, candidate.provider));
  const common = { provider: candidate.provider, credential: credential.kind, usable };
  if (!providerSpec(candidate.provider)) return { ...common, detail: candidate.unusable?.message ?? 'unknown provider' };
  switch (credential.kind) {
    case 'api_key': {
      const from = credential.source === 'config' ? 'config.yaml' : credential.source;
      const detail = `api key from ${from}`;
      return { ...common, source: credential.source, detail: usable ? detail : `${detail}; ${candidate.unusable?.message ?? ''}` };
    }
    case 'identity_token':
      return {
        ...common,
        scope: credential.scope,
        detail: usable ? 'identity token (live token probe skipped)' : `identity token; ${candidate.unusable?.message ?? ''}`,
      };
    case 'oauth_token': {
      const expires = oauth.get(candidate.provider)?.expiresAt;
      return { ...common, detail: `OAuth sign-in (auth.json${expires ? `, expires ${expires}` : ''})` };
    }
    case 'none':
      if (credential.missing && !usable) {
        return { ...common, missing: credential.missing, detail: `missing: set ${credential.missing}` };
      }
      return {
        ...common,
        ...(credential.missing ? { missing: credential.missing } : {}),
        detail: usable ? 'no key (none needed)' : `no key; ${candidate.unusable?.message ?? ''}`,
      };
  }
}

/** One line per provider and credential, in the order slots first name them. */
function providersInUse(resolutions: readonly Resolution[], env: Env, oauth: OAuthView): ProviderStatus[] {
  const seen = new Map<string, ProviderStatus>();
  for (const resolution of resolutions) {
    for (const candidate of resolution.candidates) {
      if (!CONFIGURED_REASONS.has(candidate.reason)) continue;
      const status = providerStatus(candidate, env, oauth);
      const key = [status.provider, status.credential, status.source, status.scope, status.detail].join('\u0000');
      if (!seen.has(key)) seen.set(key, status);
    }
  }
  return [...seen.values()];
}

/** The same warning for several slots (a main model without a key affects every auto slot) once. */
export function groupWarnings(resolutions: readonly Resolution[]): StatusWarning[] {
  const groups = new Map<string, { slots: SlotId[]; missing?: string }>();
  for (const { warnings } of resolutions) {
    for (const warning of warnings) {
      const prefix = `${warning.slot}: `;
      const text = warning.message.startsWith(prefix) ? warning.message.slice(prefix.length) : warning.message;
      const group = groups.get(text) ?? { slots: [], ...(warning.missing ? { missing: warning.missing } : {}) };
      if (!group.slots.includes(warning.slot)) group.slots.push(warning.slot);
      groups.set(text, group);
    }
  }
  return [...groups].map(([text, group]) => ({
    slots: group.slots,
    message: `${group.slots.length === SLOT_IDS.length ? 'every slot' : group.slots.join(', ')}: ${text}`,
    ...(group.missing ? { missing: group.missing } : {}),
  }));
}

export type StatusInput = {
  readonly config: Readonly<Config>;
  readonly env: Env;
  /** The OAuth sign-ins of auth.json. */
  readonly oauth?: OAuthView;
  readonly gateway: GatewayStatus;
  /** `--deep`: adds every slot's candidate chain, each usable entry with its planned endpoint. */
  readonly deep?: { readonly planEndpoint: EndpointPlanner };
};

export function buildStatusReport({ config, env, oauth = NO_OAUTH, gateway, deep }: StatusInput): StatusReport {
  const resolutions = SLOT_IDS.map((slot) => resolveCandidates(config, env, slot, oauth));
  const [main, ...aux] = resolutions.map((r) => slotStatus(config, env, r, deep?.planEndpoint));
  return {
    main: main as SlotStatus,
    slots: aux,
    providers: providersInUse(resolutions, env, oauth),
    gateway,
    warnings: groupWarnings(resolutions),
  };
}
