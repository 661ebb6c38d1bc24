// callModel(slot, request): walk a slot's candidates until one answers. Retries a rate-limited
// candidate briefly (honouring retry-after), moves on only on capacity-style failures, never after
// output has streamed, logs every hop to agent.log, and when every candidate fails returns the
// first error with the list of what was tried.
import { NO_OAUTH, type OAuthView } from '../auth/view.js';
import type { Env } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { streamFromProvider, type ProviderClientDeps } from '../providers/provider-client.js';
import { timeoutsFromConfig } from '../providers/timeouts.js';
import { collectStream, type Completion } from '../providers/wire/model-client.js';
import type { ModelError, ModelRequest, StreamEvent } from '../providers/wire/types.js';
import { decideOnFailure } from './failure-policy.js';
import { sleep as pause } from '../runtime/sleep.js';
import { resolveCandidates, SLOT_IDS, type Candidate, type Resolution, type SlotId } from './resolve.js';

/** What routing writes to agent.log; pino's logger fits. */
export type RoutingLog = {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
};

/**
 * The routes of every slot, resolved once when a session starts. A running session keeps these
 * even when config.yaml changes: changes apply to new sessions only.
 */
export type RoutingSnapshot = {
  readonly config: Readonly<Config>;
  readonly env: Env;
  /** The OAuth sign-ins (auth.json) when the session started. */
  readonly oauth: OAuthView;
  readonly resolutions: Readonly<Record<SlotId, Resolution>>;
};

export function snapshotRoutes(config: Readonly<Config>, env: Env, oauth: OAuthView = NO_OAUTH): RoutingSnapshot {
  const resolutions = Object.fromEntries(SLOT_IDS.map((slot) => [slot, resolveCandidates(config, env, slot, oauth)])) as Record<SlotId, Resolution>;
  return Object.freeze({ config, env, oauth, resolutions: Object.freeze(resolutions) });
}

export type RoutingDeps = Omit<ProviderClientDeps, 'env' | 'timeouts' | 'oauth'> & {
  readonly log: RoutingLog;
  /** Injectable for tests; waits before a retry and stops early on abort. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told how long each routed call took, retries and fallbacks included (the gateway's metrics). */
  readonly onCallFinished?: (slot: SlotId, seconds: number) => void;
};

export type Attempt = {
  readonly provider: string;
  readonly model: string;
  readonly reason: Candidate['reason'];
  readonly outcome: 'served' | 'failed' | 'skipped';
  readonly detail?: string;
};

export type TaskReport = {
  readonly slot: SlotId;
  readonly served?: Candidate;
  readonly attempts: readonly Attempt[];
};

export type TaskRequest = Omit<ModelRequest, 'model'>;

const name = (c: Pick<Candidate, 'provider' | 'model'>) => `${c.provider} · ${c.model}`;

/** One attempt on one candidate, capped by the slot's timeout. */
async function* attempt(candidate: Candidate, request: TaskRequest, snapshot: RoutingSnapshot, deps: RoutingDeps): AsyncGenerator<StreamEvent> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) controller.abort();
  const timer = candidate.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, candidate.timeoutMs)
    : undefined;
  try {
    const merged: ModelRequest = {
      ...request,
      model: candidate.model,
      ...(candidate.extraBody || request.extraBody ? { extraBody: { ...request.extraBody, ...candidate.extraBody } } : {}),
      signal: controller.signal,
    };
    for await (const event of streamFromProvider(candidate, merged, {
      ...deps,
      env: snapshot.env,
      oauth: snapshot.oauth,
      timeouts: timeoutsFromConfig(snapshot.config),
    })) {
      if (event.type === 'error' && event.error.code === 'cancelled' && timedOut) {
        yield {
          type: 'error',
          error: { ...event.error, code: 'timeout', message: `${name(candidate)}: no answer within the slot timeout (${candidate.timeoutMs} ms)` },
        };
        return;
      }
      yield event;
    }
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

const warned = new WeakMap<RoutingSnapshot, Set<SlotId>>();

export async function* streamTask(
  slot: SlotId,
  request: TaskRequest,
  snapshot: RoutingSnapshot,
  deps: RoutingDeps,
): AsyncGenerator<StreamEvent, TaskReport> {
  const observe = deps.onCallFinished;
  if (!observe) return yield* routeTask(slot, request, snapshot, deps);
  // Timed to the end of the call as its consumer sees it: a stream closed early ends it too.
  const started = performance.now();
  try {
    return yield* routeTask(slot, request, snapshot, deps);
  } finally {
    observe(slot, (performance.now() - started) / 1000);
  }
}

async function* routeTask(
  slot: SlotId,
  request: TaskRequest,
  snapshot: RoutingSnapshot,
  deps: RoutingDeps,
): AsyncGenerator<StreamEvent, TaskReport> {
  const resolution = snapshot.resolutions[slot];
  const slotWarned = warned.get(snapshot) ?? new Set<SlotId>();
  warned.set(snapshot, slotWarned);
  if (!slotWarned.has(slot)) {
    slotWarned.add(slot);
    for (const warning of resolution.warnings) {
      deps.log.warn({ task: slot, ...(warning.missing ? { missing: warning.missing } : {}) }, warning.message);
    }
  }
  const sleep = deps.sleep ?? pause;
  const attempts: Attempt[] = [];
  let firstError: ModelError | undefined;
  let previous: Candidate | undefined;

  for (const candidate of resolution.candidates) {
    if (candidate.unusable) {
      attempts.push({ provider: candidate.provider, model: candidate.model, reason: candidate.reason, outcome: 'skipped', detail: candidate.unusable.message });
      continue;
    }
    if (previous) {
      deps.log.info({ task: slot, from: name(previous), to: name(candidate), reason: attempts.at(-1)?.detail ?? '' }, 'model fallback');
    }
    previous = candidate;
    for (let retries = 0; ; retries++) {
      let failure: ModelError | undefined;
      for await (const event of attempt(candidate, request, snapshot, deps)) {
        if (event.type === 'error') {
          failure = event.error;
          break;
        }
        yield event;
        if (event.type === 'finish') {
          attempts.push({ provider: candidate.provider, model: candidate.model, reason: candidate.reason, outcome: 'served' });
          return { slot, served: candidate, attempts };
        }
      }
      if (!failure) {
        failure = { code: 'truncated_stream', message: `${name(candidate)}: the stream ended without a finish`, afterOutput: false };
      }
      firstError ??= failure;
      const decision = decideOnFailure(failure, retries);
      if (decision.action === 'retry') {
        deps.log.info({ task: slot, model: name(candidate), delay_ms: decision.delayMs }, 'model retry');
        await sleep(decision.delayMs, request.signal);
        if (request.signal?.aborted) {
          yield { type: 'error', error: { code: 'cancelled', message: `${slot}: cancelled`, afterOutput: false } };
          return { slot, attempts };
        }
        continue;
      }
      attempts.push({ provider: candidate.provider, model: candidate.model, reason: candidate.reason, outcome: 'failed', detail: `${failure.code}: ${failure.message}` });
      if (decision.action === 'fail') {
        yield { type: 'error', error: failure };
        return { slot, attempts };
      }
      break; // fallback: next candidate
    }
  }

  const tried = attempts.map((a) => `${a.provider} · ${a.model} (${a.outcome === 'skipped' ? a.detail : a.detail?.split(':')[0]})`).join(', ');
  const error: ModelError = firstError
    ? { ...firstError, message: `${firstError.message} [tried: ${tried}]` }
    : { code: 'not_configured', message: `${slot}: no usable model${tried ? ` [tried: ${tried}]` : ''}`, afterOutput: false };
  deps.log.warn({ task: slot, tried }, 'every candidate failed');
  yield { type: 'error', error };
  return { slot, attempts };
}

export type TaskCompletion = Completion & { readonly report: TaskReport };

/** The non-streaming call: the routed stream, collected. */
export async function callModel(slot: SlotId, request: TaskRequest, snapshot: RoutingSnapshot, deps: RoutingDeps): Promise<TaskCompletion> {
  const stream = streamTask(slot, request, snapshot, deps);
  const events: StreamEvent[] = [];
  let step = await stream.next();
  while (!step.done) {
    events.push(step.value);
    step = await stream.next();
  }
  const completion = await collectStream((async function* () { yield* events; })());
  return { ...completion, report: step.value };
}
