// The tool loop against the fake upstream and a real SQLite store.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/fakes/upstream.js';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { resolveHomePaths } from '../config/home.js';
import { validateConfig } from '../config/validate.js';
import { createApiModeMemory } from '../providers/provider-client.js';
import type { RoutingDeps } from '../routing/call-model.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { createAgent } from './agent.js';
import type { Tool } from './tools/types.js';

let fake: FakeUpstream;
let dir: string;
let store: Store;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  store = await openSqliteStore(join(dir, 'state.db'));
});
afterEach(async () => {
  await store.close();
  await removeDir(dir);
});

const routing: RoutingDeps = { apiModeMemory: createApiModeMemory(), log: { warn: () => undefined, info: () => undefined } };

const ran: string[] = [];
const echoTool: Tool = {
  definition: { name: 'echo', description: 'echoes', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
  readOnly: true,
  async run(args) {
    ran.push(String(args.text));
    return { ok: true, content: `echo: ${String(args.text)}` };
  },
};
const failingTool: Tool = {
  definition: { name: 'explode', description: 'throws', parameters: { type: 'object' } },
  readOnly: false,
  async run() {
    throw new Error('kaboom');
  },
};

const PROVIDERS = {
  chat_completions: { provider: 'openai', env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '' } },
  codex_responses: { provider: 'openai', env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '' } },
  anthropic_messages: { provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '' } },
} as const;

function agentFor(apiMode: keyof typeof PROVIDERS = 'chat_completions', extraConfig: Record<string, unknown> = {}) {
  const { provider } = PROVIDERS[apiMode];
  const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${fake.url}/v1`, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url };
  const config = validateConfig({
    model: { provider, default: 'main-m', api_mode: apiMode },
    auxiliary: { title_generation: { provider: 'openai', model: 'title-m' }, compression: { provider: 'openai', model: 'compress-m' } },
    ...extraConfig,
  }).config;
  return createAgent({
    store,
    config,
    env,
    paths: resolveHomePaths({ IRIS_HOME: join(dir, 'home') }),
    routing,
    tools: [echoTool, failingTool],
    workspaceRoot: dir,
    usageSource: 'webhook:ci',
    approve: async () => ({ approved: true, reason: 'test', by: 'policy', risk: { level: 'low', reasons: [], source: 'default' } }),
  });
}

describe.each(['chat_completions', 'codex_responses', 'anthropic_messages'] as const)('the tool loop on %s', (apiMode) => {
  it('runs tool calls, sends their results back, answers, names the session and records usage', async () => {
    ran.length = 0;
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'echo', arguments: { text: 'one' } }, { id: 'c2', name: 'echo', arguments: { text: 'two' } }] }, { kind: 'text', deltas: ['all ', 'done'], usage: { input: 50, output: 7 } });
    fake.script('title-m', { kind: 'text', deltas: ['"Echo twice."'] });
    const agent = agentFor(apiMode);
    const session = await agent.newSession('cli');
    const streamed: string[] = [];
    const result = await agent.runTurn(session, 'echo one and two', { onText: (t) => streamed.push(t) });
    // Three calls: the tool round (fake default 10 in, 5 out), the answer (50, 7), the title (10, 5).
    expect(result).toEqual({
      stopReason: 'done',
      text: 'all done',
      iterations: 2,
      served: { provider: PROVIDERS[apiMode].provider, model: 'main-m' },
      usage: { calls: 3, inputTokens: 70, outputTokens: 17, costUsd: null },
    });
    expect(streamed.join('')).toBe('all done');
    expect(ran.sort()).toEqual(['one', 'two']);
    const stored = await store.loadMessages(session.record.id);
    expect(stored).toEqual([
      { role: 'user', content: 'echo one and two' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'echo', arguments: { text: 'one' } },
          { id: 'c2', name: 'echo', arguments: { text: 'two' } },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'echo', content: 'echo: one' },
      { role: 'tool', toolCallId: 'c2', name: 'echo', content: 'echo: two' },
      { role: 'assistant', content: 'all done' },
    ]);
    expect(await store.getSession(session.record.id)).toMatchObject({ title: 'Echo twice', status: 'idle', provider: PROVIDERS[apiMode].provider, model: 'main-m' });
    // The title came from the title slot's own model.
    expect(fake.requests.map((r) => (r.body as { model: string }).model)).toEqual(['main-m', 'main-m', 'title-m']);
    const byTask = await store.usageSummary({ by: 'task' });
    expect(byTask.map((r) => [r.key, r.calls])).toEqual(expect.arrayContaining([['main', 2], ['title_generation', 1]]));
    // Every call of the run, the title's too, counts under the run's source.
    expect((await store.usageSummary({ by: 'source' })).map((r) => [r.key, r.calls])).toEqual([['webhook:ci', 3]]);
  });
});

describe('the tool loop', () => {
  it('gives tool failures and unknown tools back to the model as error results', async () => {
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'a', name: 'explode', arguments: {} }, { id: 'b', name: 'nope', arguments: {} }] }, { kind: 'text', deltas: ['recovered'] });
    const agent = agentFor();
    const session = await agent.newSession('cli');
    expect(await agent.runTurn(session, 'go')).toMatchObject({ stopReason: 'done', text: 'recovered' });
    const results = (await store.loadMessages(session.record.id)).filter((m) => m.role === 'tool');
    expect(results).toEqual([
      { role: 'tool', toolCallId: 'a', name: 'explode', content: 'the tool failed: kaboom', isError: true },
      { role: 'tool', toolCallId: 'b', name: 'nope', content: 'unknown tool "nope"; available: echo, explode', isError: true },
    ]);
    const secondRequest = fake.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(secondRequest.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'the tool failed: kaboom',
      'unknown tool "nope"; available: echo, explode',
    ]);
  });

  it('stops at agent.max_iterations with a clear reason', async () => {
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'x', name: 'echo', arguments: { text: 'again' } }] });
    const agent = agentFor('chat_completions', { agent: { max_iterations: 3 } });
    const session = await agent.newSession('cli');
    const result = await agent.runTurn(session, 'loop forever');
    expect(result.stopReason).toBe('max_iterations');
    expect(result.text).toBe('[stopped: 3 model calls in one turn (agent.max_iterations); send another message to continue]');
    expect(fake.requests.filter((r) => (r.body as { model: string }).model === 'main-m')).toHaveLength(3);
  });

  it('is cancellable: the session keeps what streamed and is marked interrupted', async () => {
    fake.script('main-m', { kind: 'hang', deltas: ['partial'] });
    const agent = agentFor();
    const session = await agent.newSession('cli');
    const controller = new AbortController();
    const result = await agent.runTurn(session, 'think hard', { onText: () => controller.abort() }, controller.signal);
    expect(result.stopReason).toBe('cancelled');
    expect(await store.loadMessages(session.record.id)).toEqual([
      { role: 'user', content: 'think hard' },
      { role: 'assistant', content: 'partial' },
    ]);
    expect((await store.getSession(session.record.id))?.status).toBe('interrupted');
  });

  it('reports a model error without losing the session', async () => {
    fake.script('main-m', { kind: 'error', status: 400, body: { error: { message: 'bad input', type: 'invalid_request_error' } } });
    const agent = agentFor();
    const session = await agent.newSession('cli');
    const result = await agent.runTurn(session, 'hello');
    expect(result).toMatchObject({ stopReason: 'error', error: { code: 'bad_request' } });
    expect(await agent.resumeSession(session.record.id)).toMatchObject({ record: { status: 'failed' }, messages: [{ role: 'user', content: 'hello' }] });
  });

  it('compresses older turns through the compression slot when over the threshold', async () => {
    fake.script('compress-m', { kind: 'text', deltas: ['the user greeted twice'] });
    const agent = agentFor('chat_completions', { model: { provider: 'openai', default: 'main-m', context_length: 1000 }, compression: { threshold: 0.5 } });
    const session = await agent.newSession('cli');
    for (const text of ['hello '.repeat(200), 'hello again '.repeat(100)]) await agent.runTurn(session, text);
    await agent.runTurn(session, 'third');
    expect(fake.requests.some((r) => (r.body as { model: string }).model === 'compress-m')).toBe(true);
    const stored = await store.loadMessages(session.record.id);
    expect(stored[0]).toEqual({ role: 'user', content: '[Summary of the earlier conversation, written when it was compressed]\nthe user greeted twice' });
    expect(stored.at(-2)).toEqual({ role: 'user', content: 'third' });
  });

  it.each([
    ['model.model', { provider: 'openai', model: 'main-m', context_length: 1000 }],
    ['an alias', { provider: 'openai', default: 'small', context_length: 1000, aliases: { small: 'openai/main-m' } }],
  ])('honours model.context_length when the main model comes from %s', async (_how, model) => {
    fake.script('compress-m', { kind: 'text', deltas: ['the user greeted twice'] });
    const agent = agentFor('chat_completions', { model, compression: { threshold: 0.5 } });
    const session = await agent.newSession('cli');
    expect(session.record.model).toBe('main-m');
    for (const text of ['hello '.repeat(200), 'hello again '.repeat(100)]) await agent.runTurn(session, text);
    await agent.runTurn(session, 'third');
    expect(fake.requests.filter((r) => (r.body as { model: string }).model === 'compress-m')).toHaveLength(1);
  });

  it('switches a session with /model and keeps it on resume; a new session uses the config', async () => {
    const agent = agentFor();
    const session = await agent.newSession('cli');
    await agent.switchModel(session, { provider: 'openai', model: 'other-m' });
    await agent.runTurn(session, 'hi');
    const resumed = await agent.resumeSession(session.record.id);
    expect(resumed?.record).toMatchObject({ provider: 'openai', model: 'other-m' });
    await agent.runTurn(resumed!, 'again');
    const fresh = await agent.newSession('cli');
    await agent.runTurn(fresh, 'new');
    const mains = fake.requests.map((r) => (r.body as { model: string }).model).filter((m) => m !== 'title-m');
    expect(mains).toEqual(['other-m', 'other-m', 'main-m']);
  });

  it('says when a /model switch lands over the new threshold, and compresses on the next message', async () => {
    fake.script('compress-m', { kind: 'text', deltas: ['summary'] });
    // 1% of gpt-4o's 128k context is 1280 tokens; the first model's configured 100k is far away.
    const agent = agentFor('chat_completions', { model: { provider: 'openai', default: 'main-m', context_length: 1_000_000 }, compression: { threshold: 0.01 } });
    const session = await agent.newSession('cli');
    await agent.runTurn(session, 'x '.repeat(3000));
    await agent.runTurn(session, 'y '.repeat(3000));
    expect(fake.requests.some((r) => (r.body as { model: string }).model === 'compress-m')).toBe(false);
    expect(await agent.switchModel(session, { provider: 'openai', model: 'gpt-4o' })).toEqual({ overThreshold: true });
    await agent.runTurn(session, 'next');
    expect(fake.requests.filter((r) => (r.body as { model: string }).model === 'compress-m')).toHaveLength(1);
  });
});
