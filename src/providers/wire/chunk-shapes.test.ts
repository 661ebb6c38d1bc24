// Chunks of the wrong shape, in each format: one malformed_stream error naming the field, never
// NaN in the usage (and so the cost), never a silently wrong tool call.
import { describe, expect, it } from 'vitest';
import { createMessagesDecoder } from './anthropic-messages.js';
import { createChatDecoder } from './chat-completions.js';
import { createResponsesDecoder } from './responses.js';
import type { StreamDecoder } from './stream-driver.js';
import type { StreamEvent } from './types.js';

function feed(decoder: StreamDecoder, chunks: unknown[]): StreamEvent[] {
  return [...chunks.flatMap((chunk) => decoder.onMessage({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) })), ...decoder.onEnd()];
}

const malformed = (detail: string): StreamEvent => ({ type: 'error', error: { code: 'malformed_stream', message: `p: malformed stream (${detail})`, afterOutput: false } });

describe('chat completions chunks', () => {
  it.each([
    [{ usage: { prompt_tokens: 'lots', completion_tokens: 1 } }, 'chunk.usage.prompt_tokens: Invalid input'],
    [{ usage: { prompt_tokens: 1, completion_tokens: -3 } }, 'chunk.usage.completion_tokens: Invalid input'],
    [{ usage: { prompt_tokens: 1, prompt_tokens_details: { cached_tokens: 1.5 } } }, 'chunk.usage.prompt_tokens_details.cached_tokens: Invalid input'],
    [{ choices: {} }, 'chunk.choices: Invalid input'],
    [{ choices: [{ delta: { content: 7 } }] }, 'chunk.choices.0.delta.content: Invalid input'],
    [{ choices: [{ delta: { tool_calls: [{ index: 0, id: 42, function: { name: 'x' } }] } }] }, 'chunk.choices.0.delta.tool_calls.0.id: Invalid input'],
  ])('%j is malformed', (chunk, detail) => {
    expect(feed(createChatDecoder('p'), [chunk, '[DONE]'])).toEqual([malformed(detail)]);
  });

  it('reads null usage details and null content as absent', () => {
    expect(
      feed(createChatDecoder('p'), [{ choices: [{ delta: { content: null } }] }, { choices: [], usage: { prompt_tokens: 3, completion_tokens: null, prompt_tokens_details: null } }, '[DONE]']),
    ).toEqual([
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});

describe('responses chunks', () => {
  it('a final response whose usage is not numbers is malformed', () => {
    expect(feed(createResponsesDecoder('p'), [{ type: 'response.completed', response: { output: [], usage: { input_tokens: '12', output_tokens: 1 } } }])).toEqual([
      malformed('response.usage.input_tokens: Invalid input'),
    ]);
  });
});

describe('messages chunks', () => {
  it.each([
    [[{ type: 'message_start', message: { usage: { input_tokens: 'ten' } } }], 'message.usage.input_tokens: Invalid input'],
    [[{ type: 'message_delta', delta: {}, usage: { output_tokens: -1 } }], 'usage.output_tokens: Invalid input'],
    [[{ type: 'content_block_start', index: 'first', content_block: { type: 'tool_use', id: 't', name: 'x' } }], 'index: Invalid input'],
  ])('%j is malformed', (chunks, detail) => {
    expect(feed(createMessagesDecoder('p'), chunks)).toEqual([malformed(detail)]);
  });
});
