// The fake's Anthropic Messages wire output: indexed content blocks between message_start and
// message_stop, cached tokens counted apart from input_tokens.
import { describe, expect, it } from 'vitest';
import type { FakeBehaviour } from '../upstream.js';
import { post, sseData, sseEvents, useFakeUpstream } from '../upstream-test-kit.js';

const fake = useFakeUpstream();
const PATH = '/anthropic/v1/messages';

function message(fields: object = {}) {
  return {
    id: 'msg_fake_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    ...fields,
  };
}

const TOOLS: Extract<FakeBehaviour, { kind: 'tool_calls' }> = {
  kind: 'tool_calls',
  text: 'Let me check.',
  calls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'toolu_custom', name: 'now', arguments: {} },
  ],
};

const jsonDelta = (index: number, partial_json: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json },
});

describe('messages, streaming', () => {
  it('streams text between message_start and message_stop', async () => {
    fake().script('claude-x', { kind: 'text', deltas: ['Hel', 'lo'], usage: { input: 30, output: 7, cached: 12 } });
    const res = await post(fake(), PATH, { model: 'claude-x', stream: true, max_tokens: 100 });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    const expected = [
      {
        type: 'message_start',
        message: message({
          usage: { input_tokens: 18, cache_creation_input_tokens: 0, cache_read_input_tokens: 12, output_tokens: 1 },
        }),
      },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } },
      { type: 'message_stop' },
    ];
    expect(sseEvents(text)).toEqual(expected.map((event) => event.type));
    expect(sseData(text)).toEqual(expected);
  });

  it('streams several tool_use blocks with input_json_delta fragments after the text block', async () => {
    fake().script('claude-x', TOOLS);
    const res = await post(fake(), PATH, { model: 'claude-x', stream: true });
    const data = sseData(await res.text());
    expect(data.slice(2)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me check.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
      jsonDelta(1, ''),
      jsonDelta(1, '{"city'),
      jsonDelta(1, '":"Par'),
      jsonDelta(1, 'is"}'),
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_custom', name: 'now', input: {} } },
      jsonDelta(2, ''),
      jsonDelta(2, '{'),
      jsonDelta(2, '}'),
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]);
  });

  it('sends only an empty partial_json for a call without arguments, and maps finishes', async () => {
    fake().script('claude-x', { kind: 'tool_calls', calls: [{ name: 'ping', arguments: '' }] });
    const res = await post(fake(), PATH, { model: 'claude-x', stream: true });
    expect(sseData(await res.text()).slice(2)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'ping', input: {} } },
      jsonDelta(0, ''),
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]);
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
  ] as const)('reports a %s finish as stop_reason %s', async (finish, stopReason) => {
    fake().script('claude-x', { kind: 'text', deltas: ['x'], finish });
    const res = await post(fake(), PATH, { model: 'claude-x', stream: true });
    expect(sseData(await res.text()).at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    });
  });
});

describe('messages, non-streaming', () => {
  it('answers text and tool_use blocks in one message object', async () => {
    fake().script('claude-x', { ...TOOLS, usage: { input: 9, output: 4, cached: 2 } });
    const res = await post(fake(), PATH, { model: 'claude-x' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(
      message({
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_custom', name: 'now', input: {} },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 2, output_tokens: 4 },
      }),
    );
  });

  it('answers plain text with stop_reason end_turn', async () => {
    const res = await post(fake(), PATH, { model: 'unscripted' });
    expect(await res.json()).toEqual({
      ...message({
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
      }),
      model: 'unscripted',
    });
  });
});
