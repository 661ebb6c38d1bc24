import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { compressionCut, estimateTokens, overThreshold } from './context-budget.js';
import { parseModelCommand, resolveModelTarget } from './model-command.js';
import { cleanTitle, transcript } from './side-job-prompts.js';
import type { Message } from '../domain/messages.js';

describe('context budget', () => {
  const turns: Message[] = [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: '', toolCalls: [{ id: '1', name: 't', arguments: {} }] },
    { role: 'tool', toolCallId: '1', name: 't', content: 'r' },
    { role: 'assistant', content: 'b' },
    { role: 'user', content: 'c' },
    { role: 'assistant', content: 'd' },
    { role: 'user', content: 'e' },
  ];

  it('cuts only at a user message, keeping the last turns', () => {
    expect(compressionCut(turns, 2)).toBe(4);
    expect(compressionCut(turns, 1)).toBe(6);
    expect(compressionCut(turns, 3)).toBe(0);
    expect(compressionCut([], 1)).toBe(0);
  });

  it('estimates about four characters a token and compares with the threshold', () => {
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(400) }], 'y'.repeat(40))).toBe(110);
    expect(overThreshold(500, 1000, 0.5)).toBe(true);
    expect(overThreshold(499, 1000, 0.5)).toBe(false);
  });
});

describe('/model', () => {
  it.each([
    ['/model sonnet', { ok: true, command: { name: 'sonnet', global: false } }],
    ['/model gpt-4.1 --provider openai --global', { ok: true, command: { name: 'gpt-4.1', provider: 'openai', global: true } }],
    ['/model', { ok: false, message: 'usage: /model <name-or-alias> [--provider <provider>] [--global]' }],
    ['/model a b', { ok: false, message: 'one model name only; usage: /model <name-or-alias> [--provider <provider>] [--global]' }],
    ['/model a --provider', { ok: false, message: '--provider needs a value; usage: /model <name-or-alias> [--provider <provider>] [--global]' }],
    ['/model a --fast', { ok: false, message: 'unknown option --fast; usage: /model <name-or-alias> [--provider <provider>] [--global]' }],
  ])('parses %j', (line, expected) => {
    expect(parseModelCommand(line)).toEqual(expected);
  });

  it('resolves aliases and keeps the session provider for a bare model', () => {
    const config = validateConfig({ model_aliases: { fast: { provider: 'openrouter', model: 'google/gemini-2.5-flash' } } }).config;
    expect(resolveModelTarget({ name: 'FAST', global: false }, config, 'openai')).toEqual({ ok: true, provider: 'openrouter', model: 'google/gemini-2.5-flash' });
    expect(resolveModelTarget({ name: 'gpt-4.1', global: false }, config, 'openai')).toEqual({ ok: true, provider: 'openai', model: 'gpt-4.1' });
    expect(resolveModelTarget({ name: 'x', provider: 'acme', global: false }, config, 'openai')).toEqual({ ok: false, message: 'unknown provider "acme"' });
  });
});

describe('side-job text', () => {
  it.each([
    ['"Fixing the login bug."', 'Fixing the login bug'],
    ['Title: Deploy notes\nmore text', 'Deploy notes'],
    ['   ', undefined],
  ])('cleans the title %j', (answer, title) => {
    expect(cleanTitle(answer)).toBe(title);
  });

  it('writes a transcript with tool calls and capped messages', () => {
    expect(
      transcript(
        [
          { role: 'user', content: 'abcdef' },
          { role: 'assistant', content: 'ok', toolCalls: [{ id: '1', name: 'ls', arguments: { path: '.' } }] },
          { role: 'tool', toolCallId: '1', name: 'ls', content: 'a b', isError: true },
        ],
        30,
      ),
    ).toBe('USER: abcdef\n\nASSISTANT: ok [called ls {"path":"."}]\n\nTOOL: [ls failed] a b');
    expect(transcript([{ role: 'user', content: 'abcdef' }], 4)).toBe('USER: abcd […]');
  });
});
