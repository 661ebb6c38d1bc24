// Every slot through every routing situation, against the fake upstream: the fake plays each
// provider (their base URLs point at it) and fails or answers per model name.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../../test/fakes/upstream.js';
import { validateConfig } from '../config/validate.js';
import { createApiModeMemory } from '../providers/provider-client.js';
import { callModel, snapshotRoutes, streamTask, type RoutingDeps } from './call-model.js';
import { SLOT_IDS, type SlotId } from './resolve.js';
import { stringMatching } from '../../test/helpers/documents.js';

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

type Logged = { level: 'warn' | 'info'; fields: Record<string, unknown>; message: string };

function harness() {
  const logged: Logged[] = [];
  const sleeps: number[] = [];
  const deps: RoutingDeps = {
    apiModeMemory: createApiModeMemory(),
    log: {
      warn: (fields, message) => logged.push({ level: 'warn', fields, message }),
      info: (fields, message) => logged.push({ level: 'info', fields, message }),
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
  return { deps, logged, sleeps };
}

const AGGREGATOR_MODEL = 'anthropic/claude-sonnet-4.5';

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    OPENROUTER_API_KEY: 'or-key',
    OPENROUTER_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: 'openai-key',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    ANTHROPIC_API_KEY: 'anthropic-key',
    ANTHROPIC_BASE_URL: fake.url,
    ...extra,
  };
}

/** A config where `slot` is served by `anthropic · slot-model` (for main: the main model itself). */
function pinned(slot: SlotId, extra: Record<string, unknown> = {}, taskChain: unknown[] = []): Record<string, unknown> {
  const main = slot === 'main' ? { provider: 'anthropic', default: 'slot-model' } : { provider: 'openai', default: 'main-model' };
  const auxiliary = slot === 'main' ? {} : { [slot]: { provider: 'anthropic', model: 'slot-model', fallback_chain: taskChain } };
  return { model: main, auxiliary, ...extra };
}

async function call(slot: SlotId, config: Record<string, unknown>, environment = env()) {
  const { deps, logged, sleeps } = harness();
  const snapshot = snapshotRoutes(validateConfig(config).config, environment);
  const result = await callModel(slot, { messages: [{ role: 'user', content: 'hi' }] }, snapshot, deps);
  return { result, logged, sleeps, models: fake.requests.map((r) => (r.body as { model?: string }).model) };
}

const fail = (behaviour: FakeBehaviour) => fake.script('slot-model', behaviour);

describe.each(SLOT_IDS)('slot %s', (slot) => {
  // Aux slots only: main has no auto and no task chain (registered only where they apply, never skipped).
  if (slot !== 'main') it('auto: served by the main model', async () => {
    const { result, models } = await call(slot, { model: { provider: 'openai', default: 'main-model' } });
    expect(result).toMatchObject({ ok: true, text: 'ok', report: { served: { provider: 'openai', model: 'main-model', reason: 'auto' } } });
    expect(models).toEqual(['main-model']);
  });

  it('explicit: served by its own provider and model', async () => {
    const { result, models } = await call(slot, pinned(slot));
    expect(result.report.served).toMatchObject({ provider: 'anthropic', model: 'slot-model' });
    expect(models).toEqual(['slot-model']);
    expect(fake.requests[0]?.path).toBe('/v1/messages');
  });

  it('explicit without a credential: the aggregator default, with a warning naming the variable', async () => {
    const withoutKey = env();
    delete withoutKey.ANTHROPIC_API_KEY;
    const { result, models, logged } = await call(slot, pinned(slot), withoutKey);
    expect(result.report.served).toMatchObject({ provider: 'openrouter', model: AGGREGATOR_MODEL, reason: 'aggregator_default' });
    expect(models).toEqual([AGGREGATOR_MODEL]);
    expect(logged.filter((l) => l.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: { task: slot, missing: 'ANTHROPIC_API_KEY' },
        message: `${slot}: anthropic · slot-model has no credential (set ANTHROPIC_API_KEY); using the aggregator default openrouter · ${AGGREGATOR_MODEL}`,
      },
    ]);
  });

  // Aux slots only: main has no auto and no task chain (registered only where they apply, never skipped).
  if (slot !== 'main') it('capacity failure: the task fallback_chain serves', async () => {
    fail({ kind: 'overloaded' });
    const { result, models, logged } = await call(slot, pinned(slot, {}, [{ provider: 'openai', model: 'chain-model' }]));
    expect(result.report.served).toMatchObject({ provider: 'openai', model: 'chain-model', reason: 'task_fallback_chain' });
    expect(models).toEqual(['slot-model', 'chain-model']);
    expect(logged.filter((l) => l.message === 'model fallback')).toEqual([
      { level: 'info', fields: { task: slot, from: 'anthropic · slot-model', to: 'openai · chain-model', reason: stringMatching(/^overloaded: /) }, message: 'model fallback' },
    ]);
  });

  it('capacity failure: the top-level fallback_providers serve', async () => {
    fail({ kind: 'server_error' });
    const { result, models } = await call(slot, pinned(slot, { fallback_providers: [{ provider: 'openai', model: 'top-model' }] }));
    expect(result.report.served).toMatchObject({ provider: 'openai', model: 'top-model', reason: 'fallback_providers' });
    expect(models).toEqual(['slot-model', 'top-model']);
  });

  it('capacity failure with no configured chain: the built-in discovery chain serves', async () => {
    fail({ kind: 'deployment_not_found' });
    const { result, models } = await call(slot, pinned(slot));
    expect(result.report.served).toMatchObject({ provider: 'openrouter', model: AGGREGATOR_MODEL, reason: 'discovery' });
    expect(models).toEqual(['slot-model', AGGREGATOR_MODEL]);
  });

  it('non-capacity failure: no fallback, the error is returned', async () => {
    fail({ kind: 'error', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad temperature' } } });
    const { result, models } = await call(slot, pinned(slot, { fallback_providers: [{ provider: 'openai', model: 'top-model' }] }));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error.code).toBe('bad_request');
    expect(models).toEqual(['slot-model']);
    expect(result.report.attempts).toEqual([
      { provider: 'anthropic', model: 'slot-model', reason: slot === 'main' ? 'main' : 'task', outcome: 'failed', detail: stringMatching(/^bad_request: /) },
    ]);
  });
});

describe('retries, output and exhaustion', () => {
  it('retries a 429 twice honouring retry-after, then falls back', async () => {
    fail({ kind: 'rate_limited', retryAfterSeconds: 2 });
    const { result, models, sleeps } = await call('vision', pinned('vision'));
    expect(sleeps).toEqual([2000, 2000]);
    expect(models).toEqual(['slot-model', 'slot-model', 'slot-model', AGGREGATOR_MODEL]);
    expect(result.ok).toBe(true);
  });

  it('never falls back after output has streamed', async () => {
    fail({ kind: 'mid_stream_error', deltas: ['half an ', 'answer'] });
    const { result, models } = await call('main', pinned('main', { fallback_providers: [{ provider: 'openai', model: 'top-model' }] }));
    expect(models).toEqual(['slot-model']);
    expect(result.ok ? '' : result.partialText).toBe('half an answer');
    expect(result.ok ? undefined : result.error.afterOutput).toBe(true);
  });

  it('returns the first error with what was tried when every candidate fails', async () => {
    fail({ kind: 'overloaded' });
    fake.script(AGGREGATOR_MODEL, { kind: 'server_error' });
    fake.script('gpt-5.1', { kind: 'server_error' });
    fake.script('claude-sonnet-4-5', { kind: 'server_error' });
    const { result, logged } = await call('compression', pinned('compression'));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error.code).toBe('overloaded');
    expect(result.ok ? '' : result.error.message).toMatch(
      /\[tried: anthropic · slot-model \(overloaded\), openrouter · anthropic\/claude-sonnet-4\.5 \(server\), openai · gpt-5\.1 \(server\), anthropic · claude-sonnet-4-5 \(server\)\]$/,
    );
    expect(logged.at(-1)).toMatchObject({ level: 'warn', message: 'every candidate failed', fields: { task: 'compression' } });
  });

  it('applies the slot timeout to one attempt and then falls back', async () => {
    fake.script('slot-model', { kind: 'slow_first_byte', delayMs: 2000, then: { kind: 'text', deltas: ['late'] } });
    const config = pinned('title_generation');
    (config.auxiliary as Record<string, Record<string, unknown>>).title_generation!.timeout = 1;
    const { result, models } = await call('title_generation', config);
    // The slot model answers after 2 s; the fallback serving proves the 1 s timeout cut it (no wall-clock bound: noisy).
    expect(models).toEqual(['slot-model', AGGREGATOR_MODEL]);
    expect(result.report.attempts[0]).toMatchObject({ outcome: 'failed', detail: stringMatching(/^timeout: anthropic · slot-model: no answer within the slot timeout \(1000 ms\)/) });
  });

  it('tells onCallFinished the slot and duration of each routed call, retries and fallbacks included', async () => {
    fake.script('slot-model', { kind: 'slow_first_byte', delayMs: 300, then: { kind: 'text', deltas: ['late'] } });
    const { deps } = harness();
    const finished: Array<[string, number]> = [];
    const snapshot = snapshotRoutes(validateConfig(pinned('vision')).config, env());
    const result = await callModel('vision', { messages: [{ role: 'user', content: 'hi' }] }, snapshot, { ...deps, onCallFinished: (slot, seconds) => finished.push([slot, seconds]) });
    expect(result.ok).toBe(true);
    expect(finished.map(([slot]) => slot)).toEqual(['vision']);
    expect(finished[0]![1]).toBeGreaterThanOrEqual(0.25);
    expect(finished[0]![1]).toBeLessThan(30);
  });

  it('merges the slot extra_body into the request', async () => {
    const config = pinned('vision');
    (config.auxiliary as Record<string, Record<string, unknown>>).vision!.extra_body = { top_k: 5 };
    await call('vision', config);
    expect(fake.requests[0]?.body).toMatchObject({ top_k: 5 });
  });
});

describe('sessions keep their routes', () => {
  it('a snapshot taken before a config change keeps routing to the old model', async () => {
    const { deps } = harness();
    const before = snapshotRoutes(validateConfig({ model: { provider: 'openai', default: 'old-model' } }).config, env());
    const after = snapshotRoutes(validateConfig({ model: { provider: 'openai', default: 'new-model' } }).config, env());
    const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
    await callModel('main', request, before, deps);
    await callModel('main', request, after, deps);
    await callModel('main', request, before, deps);
    expect(fake.requests.map((r) => (r.body as { model: string }).model)).toEqual(['old-model', 'new-model', 'old-model']);
  });

  it('streams events as they come and reports the serving candidate', async () => {
    fake.script('main-model', { kind: 'text', deltas: ['a', 'b'] });
    const { deps } = harness();
    const snapshot = snapshotRoutes(validateConfig({ model: { provider: 'openai', default: 'main-model' } }).config, env());
    const stream = streamTask('main', { messages: [{ role: 'user', content: 'hi' }] }, snapshot, deps);
    const texts: string[] = [];
    let step = await stream.next();
    while (!step.done) {
      if (step.value.type === 'text_delta') texts.push(step.value.text);
      step = await stream.next();
    }
    expect(texts).toEqual(['a', 'b']);
    expect(step.value.served).toMatchObject({ provider: 'openai', model: 'main-model', reason: 'main' });
  });
});
