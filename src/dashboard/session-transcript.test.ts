// The transcript the Sessions page shows: tool calls folded with their results and cut short,
// turns starting at user messages, each model call counted in the turn it was made in.
import { describe, expect, it } from 'vitest';
import type { SessionCall, TimedMessage } from '../store/session-browser.js';
import { ARGUMENTS_SHOWN, RESULT_SHOWN, shapeTranscript, totalsOf, turnOfCall } from './session-transcript.js';

const SESSION = { id: 's_t1', source: 'cli', title: 'Kiwi', provider: 'openai', model: 'gpt-5', status: 'idle' as const, createdAt: 1_000, updatedAt: 9_000, messageCount: 6 };

const call = (at: number, task: string, extra: Partial<SessionCall> = {}): SessionCall => ({
  at,
  provider: 'openai',
  model: 'gpt-5',
  task,
  inputTokens: 100,
  outputTokens: 10,
  cachedTokens: 5,
  cacheWriteTokens: 1,
  costUsd: 0.5,
  ...extra,
});

describe('turnOfCall', () => {
  it('the last turn started at or before the call; before the first: the first', () => {
    expect(turnOfCall(500, [1_000, 5_000])).toBe(0);
    expect(turnOfCall(1_000, [1_000, 5_000])).toBe(0);
    expect(turnOfCall(4_999, [1_000, 5_000])).toBe(0);
    expect(turnOfCall(5_000, [1_000, 5_000])).toBe(1);
    expect(turnOfCall(9_000, [])).toBe(0);
  });
});

describe('totalsOf', () => {
  it('sums tokens; the cost is the sum of known prices, null when none is known', () => {
    expect(totalsOf([call(1, 'main'), call(2, 'main', { costUsd: null })])).toEqual({
      calls: 2,
      input_tokens: 200,
      output_tokens: 20,
      cached_tokens: 10,
      cache_write_tokens: 2,
      cost_usd: 0.5,
      unpriced_calls: 1,
    });
    expect(totalsOf([call(1, 'main', { costUsd: null })]).cost_usd).toBeNull();
    expect(totalsOf([])).toEqual({ calls: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 0 });
  });
});

describe('shapeTranscript', () => {
  const long = 'x'.repeat(RESULT_SHOWN + 50);
  const timed: TimedMessage[] = [
    { at: 1_000, message: { role: 'user', content: [{ type: 'text', text: 'look at' }, { type: 'image', mediaType: 'image/png', data: 'QUJDRA==' }] } },
    {
      at: 2_000,
      message: {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: { path: 'a'.repeat(ARGUMENTS_SHOWN) } },
          { id: 'c2', name: 'run_command', arguments: {}, invalidArguments: '{"cmd": "ls' },
          { id: 'c3', name: 'list_files', arguments: {} },
        ],
      },
    },
    { at: 3_000, message: { role: 'tool', toolCallId: 'c1', name: 'read_file', content: long } },
    { at: 3_000, message: { role: 'tool', toolCallId: 'c2', name: 'run_command', content: 'bad arguments', isError: true } },
    { at: 3_000, message: { role: 'tool', toolCallId: 'gone', name: 'search_files', content: 'orphan' } },
    { at: 5_000, message: { role: 'user', content: 'thanks' } },
    { at: 6_000, message: { role: 'assistant', content: 'You are welcome.' } },
  ];
  const calls = [
    call(1_500, 'main'),
    call(2_500, 'main', { provider: 'anthropic', model: 'claude-haiku-4-5', costUsd: null }),
    call(4_000, 'title_generation', { model: 'gpt-5-mini' }),
    call(5_500, 'main'),
  ];

  it('folds each tool call with its result, cut short, and keeps an orphan result on its own', () => {
    const shaped = shapeTranscript(SESSION, timed, calls);
    expect(shaped.messages.map((m) => [m.turn, m.role])).toEqual([
      [0, 'user'],
      [0, 'assistant'],
      [0, 'tool'],
      [1, 'user'],
      [1, 'assistant'],
    ]);
    expect(shaped.messages[0]).toEqual({ turn: 0, at: '1970-01-01T00:00:01.000Z', role: 'user', text: 'look at\n[image: image/png, 6 bytes]' });
    const assistant = shaped.messages[1];
    expect(assistant?.role === 'assistant' ? assistant.tool_calls : undefined).toEqual([
      { id: 'c1', name: 'read_file', arguments: `{"path":"${'a'.repeat(ARGUMENTS_SHOWN - 10)}…`, result: `${'x'.repeat(RESULT_SHOWN - 1)}…`, ok: true, result_chars: RESULT_SHOWN + 50 },
      { id: 'c2', name: 'run_command', arguments: '{"cmd": "ls', result: 'bad arguments', ok: false, result_chars: 13 },
      { id: 'c3', name: 'list_files', arguments: '{}', result: null, ok: null, result_chars: 0 },
    ]);
    expect(shaped.messages[2]).toEqual({ turn: 0, at: '1970-01-01T00:00:03.000Z', role: 'tool', name: 'search_files', text: 'orphan', ok: true });
  });

  it('counts each call in its turn: the models that answered, the aux tasks, tokens and cost; and the total', () => {
    const shaped = shapeTranscript(SESSION, timed, calls);
    expect(shaped.session).toMatchObject({ id: 's_t1', title: 'Kiwi', messages: 6 });
    expect(shaped.turns).toEqual([
      {
        turn: 0,
        models: [
          { provider: 'openai', model: 'gpt-5' },
          { provider: 'anthropic', model: 'claude-haiku-4-5' },
        ],
        tasks: ['title_generation'],
        calls: 3,
        input_tokens: 300,
        output_tokens: 30,
        cached_tokens: 15,
        cache_write_tokens: 3,
        cost_usd: 1,
        unpriced_calls: 1,
      },
      { turn: 1, models: [{ provider: 'openai', model: 'gpt-5' }], tasks: [], calls: 1, input_tokens: 100, output_tokens: 10, cached_tokens: 5, cache_write_tokens: 1, cost_usd: 0.5, unpriced_calls: 0 },
    ]);
    expect(shaped.totals).toEqual({ calls: 4, input_tokens: 400, output_tokens: 40, cached_tokens: 20, cache_write_tokens: 4, cost_usd: 1.5, unpriced_calls: 1 });
  });

  it('an empty session has no turns and zero totals', () => {
    expect(shapeTranscript({ ...SESSION, messageCount: 0 }, [], [])).toMatchObject({ messages: [], turns: [], totals: { calls: 0, cost_usd: null } });
  });
});

describe('shapeTranscript redaction', () => {
  it('takes credential-shaped text out of tool arguments and results, as the logs do', () => {
    const timed: TimedMessage[] = [
      { at: 1_000, message: { role: 'user', content: 'show the env' } },
      { at: 2_000, message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'curl -H "Authorization: Bearer abcdefgh12345678" x' } }] } },
      { at: 3_000, message: { role: 'tool', toolCallId: 'c1', name: 'run_command', content: 'OPENAI_API_KEY=sk-live0123456789abcdef\nHOME=/root' } },
    ];
    const shaped = shapeTranscript(SESSION, timed, []);
    const toolCall = shaped.messages.flatMap((message) => ('tool_calls' in message ? message.tool_calls : []))[0];
    expect(toolCall).toMatchObject({
      arguments: '{"command":"curl -H \\"Authorization: Bearer [redacted]\\" x"}',
      result: 'OPENAI_API_KEY=sk-[redacted]\nHOME=/root',
    });
  });
});
