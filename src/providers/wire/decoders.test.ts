// The three stream decoders on hand-made SSE messages: the edge cases a live fake cannot easily
// produce (unknown events, odd tool argument text, the authoritative final response).
import { describe, expect, it } from 'vitest';
import { createMessagesDecoder } from './anthropic-messages.js';
import { createChatDecoder } from './chat-completions.js';
import { createResponsesDecoder } from './responses.js';
import type { StreamDecoder } from './stream-driver.js';
import type { StreamEvent } from './types.js';

function feed(decoder: StreamDecoder, messages: Array<{ event?: string; data: unknown }>, end = true): StreamEvent[] {
  const events = messages.flatMap((m) =>
    decoder.onMessage({ data: typeof m.data === 'string' ? m.data : JSON.stringify(m.data), ...(m.event ? { event: m.event } : {}) }),
  );
  return end ? [...events, ...decoder.onEnd()] : events;
}

describe('chat completions decoder', () => {
  it('assembles interleaved tool calls by index and keeps bad argument text raw', () => {
    const events = feed(createChatDecoder('p'), [
      { data: { choices: [{ delta: { tool_calls: [{ index: 1, id: 'b', function: { name: 'two', arguments: '' } }] } }] } },
      { data: { choices: [{ delta: { tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: '{"x"' } }] } }] } },
      { data: { choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: 'not json' } }] } }] } },
      { data: { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }] } },
      { data: { choices: [{ delta: {}, finish_reason: 'tool_calls' }] } },
      { data: '[DONE]' },
    ]);
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'a', name: 'one', arguments: { x: 1 } } },
      { type: 'tool_call', call: { id: 'b', name: 'two', arguments: {}, invalidArguments: 'not json' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('ends without [DONE] as a truncated stream and a bad line as malformed', () => {
    expect(feed(createChatDecoder('p'), [{ data: { choices: [{ delta: { content: 'hi' } }] } }])).toEqual([
      { type: 'text_delta', text: 'hi' },
      { type: 'error', error: { code: 'truncated_stream', message: 'p: the stream ended before the response was complete', afterOutput: false } },
    ]);
    expect(feed(createChatDecoder('p'), [{ data: '{oops' }], false)).toEqual([
      { type: 'error', error: { code: 'malformed_stream', message: 'p: malformed stream (a data line is not a JSON object)', afterOutput: false } },
    ]);
  });
});

describe('responses decoder', () => {
  it('ignores unknown event types and takes missing pieces from response.completed', () => {
    const events = feed(createResponsesDecoder('p'), [
      { event: 'response.created', data: { type: 'response.created', response: {} } },
      { event: 'response.brand_new_thing', data: { type: 'response.brand_new_thing', x: 1 } },
      {
        event: 'response.completed',
        data: {
          type: 'response.completed',
          response: {
            status: 'completed',
            output: [
              { type: 'message', content: [{ type: 'output_text', text: 'from the final response' }] },
              { type: 'function_call', call_id: 'c1', name: 'f', arguments: '' },
            ],
            usage: { input_tokens: 10, output_tokens: 3, input_tokens_details: { cached_tokens: 4 } },
          },
        },
      },
    ]);
    expect(events).toEqual([
      { type: 'text_delta', text: 'from the final response' },
      { type: 'tool_call', call: { id: 'c1', name: 'f', arguments: {} } },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 3, cachedInputTokens: 4, cacheWriteInputTokens: 0 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('does not repeat a call already announced by output_item.done', () => {
    const call = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' };
    const events = feed(createResponsesDecoder('p'), [
      { data: { type: 'response.output_item.done', item: call } },
      { data: { type: 'response.completed', response: { output: [call] } } },
    ]);
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'c1', name: 'f', arguments: { a: 1 } } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('maps response.incomplete to a length finish and response.failed to an error', () => {
    expect(feed(createResponsesDecoder('p'), [{ data: { type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } } }])).toEqual([
      { type: 'finish', reason: 'length' },
    ]);
    const failed = feed(createResponsesDecoder('p'), [
      { data: { type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } } },
    ]);
    expect(failed).toEqual([
      { type: 'error', error: { code: 'server', message: 'p stream failed: boom', providerCode: 'server_error', afterOutput: false } },
    ]);
  });
});

describe('messages decoder', () => {
  it('counts the tokens written to the prompt cache apart from those read (both in the input total)', () => {
    const events = feed(createMessagesDecoder('p'), [
      { data: { type: 'message_start', message: { usage: { input_tokens: 5, cache_read_input_tokens: 20, cache_creation_input_tokens: 300, output_tokens: 1 } } } },
      { data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'ok' } } },
      { data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } } },
      { data: { type: 'message_stop' } },
    ]);
    expect(events).toEqual([
      { type: 'text_delta', text: 'ok' },
      { type: 'usage', usage: { inputTokens: 325, outputTokens: 4, cachedInputTokens: 20, cacheWriteInputTokens: 300 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('gives an empty tool input as {} and counts cached input in the total', () => {
    const events = feed(createMessagesDecoder('p'), [
      { data: { type: 'message_start', message: { usage: { input_tokens: 5, cache_read_input_tokens: 20, output_tokens: 1 } } } },
      { data: { type: 'ping' } },
      { data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'now', input: {} } } },
      { data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } } },
      { data: { type: 'content_block_stop', index: 0 } },
      { data: { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } } },
      { data: { type: 'message_stop' } },
    ]);
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 't1', name: 'now', arguments: {} } },
      { type: 'usage', usage: { inputTokens: 25, outputTokens: 9, cachedInputTokens: 20, cacheWriteInputTokens: 0 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('turns an in-stream overloaded error into an overloaded error', () => {
    const events = feed(createMessagesDecoder('p'), [
      { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    ]);
    expect(events).toEqual([
      { type: 'error', error: { code: 'overloaded', message: 'p stream failed: Overloaded', providerCode: 'overloaded_error', afterOutput: false } },
    ]);
  });
});
