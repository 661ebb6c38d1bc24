// The chat-completions fast path: only the plain text-delta chunk skips the schema; every other
// shape is left to chatChunk, so the checks stay the same.
import { describe, expect, it } from 'vitest';
import { chatChunk } from './chunk-schemas.js';
import { textOnlyDelta } from './chat-completions.js';

describe('textOnlyDelta', () => {
  it.each([
    [{ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] }, 'Hel'],
    [{ id: 'c1', object: 'chat.completion.chunk', choices: [{ delta: { role: 'assistant', content: '' } }], usage: null }, ''],
    [{ choices: [{ delta: { content: 'x', tool_calls: null } }] }, 'x'],
  ])('%j: its text', (chunk, text) => {
    expect(textOnlyDelta(chunk)).toBe(text);
    // The schema agrees that the shape is fine.
    expect(chatChunk.safeParse(chunk).success).toBe(true);
  });

  it.each([
    ['usage', { choices: [{ delta: { content: 'a' } }], usage: { prompt_tokens: 1 } }],
    ['a finish', { choices: [{ delta: { content: 'a' }, finish_reason: 'stop' }] }],
    ['tool calls', { choices: [{ delta: { content: null, tool_calls: [{ index: 0, function: { arguments: '{' } }] } }] }],
    ['two choices', { choices: [{ delta: { content: 'a' } }, { delta: { content: 'b' } }] }],
    ['no choices', { choices: [] }],
    ['content of the wrong type', { choices: [{ delta: { content: 5 } }] }],
    ['a null delta', { choices: [{ delta: null }] }],
    ['choices not a list', { choices: {} }],
    ['a choice that is a list', { choices: [[]] }],
  ])('%s: left to the schema', (_name, chunk) => {
    expect(textOnlyDelta(chunk)).toBeUndefined();
  });
});
