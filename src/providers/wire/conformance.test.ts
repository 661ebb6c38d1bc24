// One conformance suite, three wire clients: each case runs against the fake upstream (a real
// HTTP server speaking the real formats) once per api mode, and asserts the events and the
// request that went on the wire.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/fakes/upstream.js';
import { collectStream, streamModel, type WireCall } from './model-client.js';
import type { ApiMode, ModelRequest, StreamEvent } from './types.js';

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const PATHS: Record<ApiMode, string> = {
  chat_completions: '/v1/chat/completions',
  codex_responses: '/v1/responses',
  anthropic_messages: '/v1/messages',
};

function call(apiMode: ApiMode, timeouts = { connectMs: 2000, firstByteMs: 2000, idleMs: 2000 }): WireCall {
  return { apiMode, url: `${fake.url}${PATHS[apiMode]}`, headers: { 'x-test': '1' }, timeouts, label: `fake (${apiMode})` };
}

async function events(request: ModelRequest, apiMode: ApiMode, wire = call(apiMode)): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of streamModel(request, wire)) out.push(event);
  return out;
}

const ask = (model: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: 'be brief',
  messages: [{ role: 'user', content: 'hi' }],
  maxOutputTokens: 100,
  ...extra,
});

const MODES: ApiMode[] = ['chat_completions', 'codex_responses', 'anthropic_messages'];

const TIME_SCHEMA = { type: 'object', properties: { tz: { type: 'string' } } };

/** What each format must put on the wire for the same tool-result round trip. */
const ROUND_TRIP_BODY: Record<ApiMode, Record<string, unknown>> = {
  chat_completions: {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'what time is it' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'now', arguments: '{"tz":"UTC"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: '12:00' },
    ],
    tools: [{ type: 'function', function: { name: 'now', description: 'current time', parameters: TIME_SCHEMA } }],
    stream_options: { include_usage: true },
    max_tokens: 100,
  },
  codex_responses: {
    instructions: 'be brief',
    input: [
      { role: 'user', content: [{ type: 'input_text', text: 'what time is it' }] },
      { type: 'function_call', call_id: 'call_9', name: 'now', arguments: '{"tz":"UTC"}' },
      { type: 'function_call_output', call_id: 'call_9', output: '12:00' },
    ],
    tools: [{ type: 'function', name: 'now', description: 'current time', parameters: TIME_SCHEMA }],
    max_output_tokens: 100,
  },
  anthropic_messages: {
    system: 'be brief',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'what time is it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_9', name: 'now', input: { tz: 'UTC' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_9', content: '12:00' }] },
    ],
    tools: [{ name: 'now', description: 'current time', input_schema: TIME_SCHEMA }],
    max_tokens: 100,
  },
};

describe.each(MODES)('%s client', (apiMode) => {
  it('streams text, usage and a stop finish', async () => {
    fake.script('m', { kind: 'text', deltas: ['Hel', 'lo', ' there'], usage: { input: 12, output: 3, cached: 4 } });
    const got = await events(ask('m'), apiMode);
    expect(got.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : ''))).toEqual(['Hel', 'lo', ' there']);
    expect(got.slice(-2)).toEqual([
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 4, cacheWriteInputTokens: 0 } },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.path).toBe(PATHS[apiMode]);
    expect(fake.requests[0]?.headers['x-test']).toBe('1');
    expect(fake.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('returns several tool calls with parsed arguments', async () => {
    fake.script('m', {
      kind: 'tool_calls',
      calls: [
        { id: 'call_1', name: 'read_file', arguments: { path: 'a.txt', lines: [1, 2] } },
        { id: 'call_2', name: 'now', arguments: {} },
      ],
    });
    const result = await collectStream(streamModel(ask('m'), call(apiMode)));
    expect(result).toMatchObject({
      ok: true,
      finish: 'tool_calls',
      toolCalls: [
        { id: 'call_1', name: 'read_file', arguments: { path: 'a.txt', lines: [1, 2] } },
        { id: 'call_2', name: 'now', arguments: {} },
      ],
    });
  });

  it('sends a tool-result round trip in the format’s own shape', async () => {
    fake.script('m', { kind: 'text', deltas: ['done'] });
    const request = ask('m', {
      messages: [
        { role: 'user', content: 'what time is it' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'now', arguments: { tz: 'UTC' } }] },
        { role: 'tool', toolCallId: 'call_9', name: 'now', content: '12:00' },
      ],
      tools: [{ name: 'now', description: 'current time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } }],
    });
    const result = await collectStream(streamModel(request, call(apiMode)));
    expect(result).toMatchObject({ ok: true, text: 'done' });
    expect(fake.requests[0]?.body).toMatchObject({ ...ROUND_TRIP_BODY[apiMode], stream: true });
  });

  it.each([
    [{ kind: 'rate_limited', retryAfterSeconds: 7 }, { code: 'rate_limited', status: 429, retryAfterMs: 7000 }],
    [{ kind: 'unauthorized' }, { code: 'auth', status: 401 }],
    [{ kind: 'server_error' }, { code: 'server', status: 500 }],
    [{ kind: 'overloaded' }, { code: 'overloaded', status: 529 }],
    [{ kind: 'unsupported' }, { code: 'unsupported_operation', status: 400 }],
    [{ kind: 'deployment_not_found' }, { code: 'not_found', status: 404, providerCode: 'DeploymentNotFound' }],
  ] as const)('classifies %j', async (behaviour, expected) => {
    fake.script('m', behaviour);
    const got = await events(ask('m'), apiMode);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'error', error: { ...expected, afterOutput: false } });
  });

  it('reports an error after streamed output with afterOutput set', async () => {
    fake.script('m', { kind: 'mid_stream_error', deltas: ['par', 'tial'], message: 'exploded' });
    const result = await collectStream(streamModel(ask('m'), call(apiMode)));
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.afterOutput).toBe(true);
    expect(result.ok ? '' : result.partialText).toBe('partial');
  });

  it('ends a truncated stream with truncated_stream', async () => {
    fake.script('m', { kind: 'truncated', deltas: ['a', 'b'] });
    const got = await events(ask('m'), apiMode);
    expect(got.at(-1)).toEqual({
      type: 'error',
      error: { code: 'truncated_stream', message: `fake (${apiMode}): the stream ended before the response was complete`, afterOutput: true },
    });
  });

  it('ends a malformed stream with malformed_stream', async () => {
    fake.script('m', { kind: 'malformed' });
    const got = await events(ask('m'), apiMode);
    expect(got).toEqual([
      { type: 'error', error: { code: 'malformed_stream', message: `fake (${apiMode}): malformed stream (a data line is not a JSON object)`, afterOutput: false } },
    ]);
  });

  it('stops a silent stream with an idle timeout', async () => {
    fake.script('m', { kind: 'hang', deltas: ['x'] });
    const started = Date.now();
    const got = await events(ask('m'), apiMode, call(apiMode, { connectMs: 1000, firstByteMs: 1000, idleMs: 150 }));
    expect(got.at(-1)).toEqual({ type: 'error', error: { code: 'timeout', message: `fake (${apiMode}): the stream went silent`, afterOutput: true } });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stops waiting for a slow first byte', async () => {
    fake.script('m', { kind: 'slow_first_byte', delayMs: 1000, then: { kind: 'text', deltas: ['late'] } });
    const got = await events(ask('m'), apiMode, call(apiMode, { connectMs: 1000, firstByteMs: 100, idleMs: 1000 }));
    expect(got).toEqual([{ type: 'error', error: { code: 'timeout', message: `fake (${apiMode}): no response in time`, afterOutput: false } }]);
  });

  it('can be cancelled mid-stream', async () => {
    fake.script('m', { kind: 'hang', deltas: ['x'] });
    const controller = new AbortController();
    const got: StreamEvent[] = [];
    for await (const event of streamModel(ask('m', { signal: controller.signal }), call(apiMode))) {
      got.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    expect(got).toEqual([
      { type: 'text_delta', text: 'x' },
      { type: 'error', error: { code: 'cancelled', message: `fake (${apiMode}): request cancelled`, afterOutput: true } },
    ]);
  });

  it('reports a refused connection as a network error', async () => {
    const got = await events(ask('m'), apiMode, { ...call(apiMode), url: 'http://127.0.0.1:1/v1/x' });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'error', error: { code: 'network', afterOutput: false } });
  });
});

describe('anthropic_messages specifics', () => {
  it('always sends max_tokens', async () => {
    await events(ask('m', { maxOutputTokens: undefined }), 'anthropic_messages');
    expect((fake.requests[0]?.body as Record<string, unknown>).max_tokens).toBe(8192);
  });
});
