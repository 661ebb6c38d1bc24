// The fake's chat completions wire output, byte for byte where it matters.
import { describe, expect, it } from 'vitest';
import type { FakeBehaviour } from '../upstream.js';
import { post, sseData, useFakeUpstream } from '../upstream-test-kit.js';

const fake = useFakeUpstream();
const PATH = '/openai/v1/chat/completions';
const CREATED = 1_700_000_000;

function chunk(delta: object, finishReason: string | null = null, extra: object = {}) {
  return {
    id: 'chatcmpl-fake-1',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-x',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  };
}

const TOOLS: Extract<FakeBehaviour, { kind: 'tool_calls' }> = {
  kind: 'tool_calls',
  text: 'Let me check.',
  calls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'call_custom', name: 'now', arguments: {} },
  ],
};

describe('chat completions, streaming', () => {
  it('streams text: role chunk, content deltas, finish chunk, usage chunk, [DONE]', async () => {
    fake().script('gpt-x', { kind: 'text', deltas: ['Hel', 'lo'], usage: { input: 12, output: 3, cached: 4 } });
    const res = await post(fake(), PATH, { model: 'gpt-x', stream: true, stream_options: { include_usage: true } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    expect(text).not.toContain('event:');
    const withUsage = { usage: null };
    expect(sseData(text)).toEqual([
      chunk({ role: 'assistant', content: '', refusal: null }, null, withUsage),
      chunk({ content: 'Hel' }, null, withUsage),
      chunk({ content: 'lo' }, null, withUsage),
      chunk({}, 'stop', withUsage),
      {
        id: 'chatcmpl-fake-1',
        object: 'chat.completion.chunk',
        created: CREATED,
        model: 'gpt-x',
        choices: [],
        usage: {
          prompt_tokens: 12,
          completion_tokens: 3,
          total_tokens: 15,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      },
      '[DONE]',
    ]);
  });

  it('sends no usage chunk (and no usage field) unless stream_options.include_usage is set', async () => {
    fake().script('gpt-x', { kind: 'text', deltas: ['a'], finish: 'length' });
    const res = await post(fake(), PATH, { model: 'gpt-x', stream: true });
    expect(sseData(await res.text())).toEqual([
      chunk({ role: 'assistant', content: '', refusal: null }),
      chunk({ content: 'a' }),
      chunk({}, 'length'),
      '[DONE]',
    ]);
  });

  it('streams several tool calls as indexed fragments that only assemble by index', async () => {
    fake().script('gpt-x', TOOLS);
    const res = await post(fake(), PATH, { model: 'gpt-x', stream: true });
    expect(sseData(await res.text())).toEqual([
      chunk({ role: 'assistant', content: '', refusal: null }),
      chunk({ content: 'Let me check.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '":"Par' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_custom', type: 'function', function: { name: 'now', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '}' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
  });

  it('opens a tool-only answer with content null and sends string arguments verbatim', async () => {
    fake().script('gpt-x', { kind: 'tool_calls', calls: [{ name: 'ping', arguments: '' }, { name: 'bad', arguments: '{oops' }] });
    const res = await post(fake(), PATH, { model: 'gpt-x', stream: true });
    expect(sseData(await res.text())).toEqual([
      chunk({ role: 'assistant', content: null, refusal: null }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ping', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'bad', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{o' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'op' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 's' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
  });
});

describe('chat completions, non-streaming', () => {
  it('answers text as a chat.completion object', async () => {
    fake().script('gpt-x', { kind: 'text', deltas: ['Hel', 'lo'], finish: 'content_filter' });
    const res = await post(fake(), PATH, { model: 'gpt-x' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      id: 'chatcmpl-fake-1',
      object: 'chat.completion',
      created: CREATED,
      model: 'gpt-x',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello', refusal: null },
          logprobs: null,
          finish_reason: 'content_filter',
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });

  it('answers tool calls in message.tool_calls', async () => {
    fake().script('gpt-x', TOOLS);
    const res = await post(fake(), PATH, { model: 'gpt-x', stream: false });
    const body = (await res.json()) as { choices: unknown[] };
    expect(body.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Let me check.',
          refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_custom', type: 'function', function: { name: 'now', arguments: '{}' } },
          ],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
  });
});
