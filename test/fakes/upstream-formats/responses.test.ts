// The fake's Responses API wire output: named events, one sequence, a terminal response.
import { describe, expect, it } from 'vitest';
import type { FakeBehaviour } from '../upstream.js';
import { parseSse, post, sseData, sseEvents, useFakeUpstream } from '../upstream-test-kit.js';

const fake = useFakeUpstream();
const PATH = '/openai/v1/responses';
const CREATED = 1_700_000_000;

function response(fields: object = {}) {
  return {
    id: 'resp_fake_1',
    object: 'response',
    created_at: CREATED,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    model: 'gpt-r',
    output: [],
    usage: null,
    ...fields,
  };
}

function usage(input: number, output: number, cached: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

const MSG = { item_id: 'msg_fake_1', output_index: 0, content_index: 0 };
const messageItem = (status: string, text: string) => ({
  id: 'msg_fake_1',
  type: 'message',
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const callItem = (index: number, callId: string, name: string, status: string, args: string) => ({
  id: `fc_${index}`,
  type: 'function_call',
  status,
  arguments: args,
  call_id: callId,
  name,
});

const TOOLS: Extract<FakeBehaviour, { kind: 'tool_calls' }> = {
  kind: 'tool_calls',
  text: 'Let me check.',
  calls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'call_custom', name: 'now', arguments: {} },
  ],
};

describe('responses, streaming', () => {
  it('streams text as the full semantic event sequence ending in response.completed', async () => {
    fake().script('gpt-r', { kind: 'text', deltas: ['Hel', 'lo'], usage: { input: 20, output: 7, cached: 8 } });
    const res = await post(fake(), PATH, { model: 'gpt-r', stream: true });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    const events = [
      ['response.created', { response: response() }],
      ['response.in_progress', { response: response() }],
      ['response.output_item.added', { output_index: 0, item: { ...messageItem('in_progress', ''), content: [] } }],
      ['response.content_part.added', { ...MSG, part: { type: 'output_text', text: '', annotations: [] } }],
      ['response.output_text.delta', { ...MSG, delta: 'Hel', logprobs: [] }],
      ['response.output_text.delta', { ...MSG, delta: 'lo', logprobs: [] }],
      ['response.output_text.done', { ...MSG, text: 'Hello', logprobs: [] }],
      ['response.content_part.done', { ...MSG, part: { type: 'output_text', text: 'Hello', annotations: [] } }],
      ['response.output_item.done', { output_index: 0, item: messageItem('completed', 'Hello') }],
      [
        'response.completed',
        { response: response({ status: 'completed', output: [messageItem('completed', 'Hello')], usage: usage(20, 7, 8) }) },
      ],
    ] as const;
    expect(sseEvents(text)).toEqual(events.map(([type]) => type));
    expect(sseData(text)).toEqual(events.map(([type, fields], i) => ({ type, sequence_number: i, ...fields })));
  });

  it('streams several function calls as items with argument deltas, after the message item', async () => {
    fake().script('gpt-r', TOOLS);
    const res = await post(fake(), PATH, { model: 'gpt-r', stream: true });
    const text = await res.text();
    expect(sseEvents(text)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const data = sseData(text) as Array<Record<string, unknown>>;
    expect(data.map((event) => event.sequence_number)).toEqual(data.map((_, i) => i));
    const weather = callItem(1, 'call_1', 'get_weather', 'completed', '{"city":"Paris"}');
    const now = callItem(2, 'call_custom', 'now', 'completed', '{}');
    expect(data.slice(8, 14)).toEqual([
      { type: 'response.output_item.added', sequence_number: 8, output_index: 1, item: { ...weather, status: 'in_progress', arguments: '' } },
      { type: 'response.function_call_arguments.delta', sequence_number: 9, item_id: 'fc_1', output_index: 1, delta: '{"city' },
      { type: 'response.function_call_arguments.delta', sequence_number: 10, item_id: 'fc_1', output_index: 1, delta: '":"Par' },
      { type: 'response.function_call_arguments.delta', sequence_number: 11, item_id: 'fc_1', output_index: 1, delta: 'is"}' },
      { type: 'response.function_call_arguments.done', sequence_number: 12, item_id: 'fc_1', output_index: 1, arguments: '{"city":"Paris"}' },
      { type: 'response.output_item.done', sequence_number: 13, output_index: 1, item: weather },
    ]);
    expect(data[19]).toEqual({
      type: 'response.completed',
      sequence_number: 19,
      response: response({
        status: 'completed',
        output: [messageItem('completed', 'Let me check.'), weather, now],
        usage: usage(10, 5, 0),
      }),
    });
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content_filter', 'content_filter'],
  ] as const)('ends a %s finish with response.incomplete (reason %s)', async (finish, reason) => {
    fake().script('gpt-r', { kind: 'text', deltas: ['cut'], finish });
    const res = await post(fake(), PATH, { model: 'gpt-r', stream: true });
    const frames = parseSse(await res.text());
    expect(frames.at(-1)?.event).toBe('response.incomplete');
    expect(JSON.parse(frames.at(-1)?.data ?? '')).toEqual({
      type: 'response.incomplete',
      sequence_number: 8, // created, in_progress, item, part, one delta, text/part/item done
      response: response({
        status: 'incomplete',
        incomplete_details: { reason },
        output: [messageItem('incomplete', 'cut')],
        usage: usage(10, 5, 0),
      }),
    });
  });
});

describe('responses, non-streaming', () => {
  it('answers with the finished response object', async () => {
    fake().script('gpt-r', TOOLS);
    const res = await post(fake(), PATH, { model: 'gpt-r' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(
      response({
        status: 'completed',
        output: [
          messageItem('completed', 'Let me check.'),
          callItem(1, 'call_1', 'get_weather', 'completed', '{"city":"Paris"}'),
          callItem(2, 'call_custom', 'now', 'completed', '{}'),
        ],
        usage: usage(10, 5, 0),
      }),
    );
  });

  it('answers a text-only length finish as incomplete', async () => {
    fake().script('gpt-r', { kind: 'text', deltas: ['a', 'b'], finish: 'length', usage: { input: 3, output: 2 } });
    const res = await post(fake(), PATH, { model: 'gpt-r', stream: false });
    expect(await res.json()).toEqual(
      response({
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [messageItem('incomplete', 'ab')],
        usage: usage(3, 2, 0),
      }),
    );
  });
});
