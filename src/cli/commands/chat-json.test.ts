import { describe, expect, it } from 'vitest';
import type { AgentSession, TurnResult } from '../../agent/agent.js';
import { oneShotJson } from './chat-json.js';

const session = { record: { id: 's_0123456789ab', provider: 'openai', model: 'gpt-5' } } as unknown as AgentSession;
const usage = { calls: 2, inputTokens: 30, outputTokens: 4, costUsd: 0.1 + 0.2 };

describe('oneShotJson', () => {
  it('reports the served model, the usage with a clean cost, and exit ok', () => {
    const result: TurnResult = { stopReason: 'done', text: 'hi', iterations: 1, usage, served: { provider: 'openrouter', model: 'openai/gpt-5' } };
    expect(oneShotJson(session, result)).toEqual({
      session_id: 's_0123456789ab',
      answer: 'hi',
      provider: 'openrouter',
      model: 'openai/gpt-5',
      usage: { input_tokens: 30, output_tokens: 4, cost_usd: 0.3 },
      exit: 'ok',
    });
  });

  it.each([
    ['max_iterations', 'max_iterations'],
    ['cancelled', 'interrupted'],
  ] as const)('maps %s to exit %s, with the session model when nothing was served', (stopReason, exit) => {
    const json = oneShotJson(session, { stopReason, text: '', iterations: 1, usage: { ...usage, costUsd: null } });
    expect(json).toMatchObject({ provider: 'openai', model: 'gpt-5', exit, usage: { cost_usd: null } });
    expect(json).not.toHaveProperty('error');
  });

  it('adds the error, redacted, only when the turn failed', () => {
    const json = oneShotJson(session, {
      stopReason: 'error',
      text: 'part',
      iterations: 1,
      usage,
      error: { code: 'http', message: 'upstream said: bad key sk-abcdefghijklmnopqrstuvwxyz012345', retryable: false } as unknown as NonNullable<TurnResult['error']>,
    });
    expect(json.exit).toBe('error');
    expect(json.answer).toBe('part');
    expect(json.error).not.toContain('sk-abcdefghijklmnopqrstuvwxyz012345');
    expect(json.error).toMatch(/^upstream said: bad key /);
  });
});
