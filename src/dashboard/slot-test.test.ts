import { describe, expect, it } from 'vitest';
import type { TaskCompletion } from '../routing/call-model.js';
import { parseSlotTestBody, slotTestOutcome, slotTestRequest, SLOT_TEST_MAX_OUTPUT_TOKENS } from './slot-test.js';

const served = { provider: 'anthropic', model: 'claude-x', reason: 'fallback_providers' as const, why: 'fallback_providers[0]' };

describe('slotTestRequest', () => {
  it('is one short user message with a small output cap and no tools', () => {
    const request = slotTestRequest();
    expect(request.messages).toEqual([{ role: 'user', content: 'Connection test from the Iris dashboard: reply with the single word ok.' }]);
    expect(request.maxOutputTokens).toBe(SLOT_TEST_MAX_OUTPUT_TOKENS);
    expect(request.tools).toBeUndefined();
  });
});

describe('parseSlotTestBody', () => {
  it('takes main or an aux task id, and refuses anything else', () => {
    expect(parseSlotTestBody({ task: 'main' })).toEqual({ ok: true, slot: 'main' });
    expect(parseSlotTestBody({ task: 'vision' })).toEqual({ ok: true, slot: 'vision' });
    expect(parseSlotTestBody({ task: 'nope' })).toEqual({ ok: false, status: 400, error: 'unknown task "nope" (tasks: main, vision, web_extract, compression, skills_hub, approval, mcp, title_generation, triage_specifier, kanban_decomposer, profile_describer, curator)' });
    expect(parseSlotTestBody({ task: 3 })).toEqual({ ok: false, status: 400, error: 'task must be a string: main or an auxiliary task id' });
    expect(parseSlotTestBody([])).toEqual({ ok: false, status: 400, error: 'the body must be a JSON object {task}' });
  });
});

describe('slotTestOutcome', () => {
  it('names who answered, the latency and the route that failed first', () => {
    const completion: TaskCompletion = {
      ok: true,
      text: ' ok ',
      toolCalls: [],
      finish: 'stop',
      report: {
        slot: 'main',
        served,
        attempts: [
          { provider: 'openai', model: 'main-m', reason: 'main', outcome: 'failed', detail: 'overloaded: openai · main-m: 503 key sk-abcdefghijklmnopqrstuvwx' },
          { provider: 'anthropic', model: 'claude-x', reason: 'fallback_providers', outcome: 'served' },
        ],
      },
    };
    const outcome = slotTestOutcome('main', completion, 41.6);
    expect(outcome).toEqual({
      ok: true,
      task: 'main',
      provider: 'anthropic',
      model: 'claude-x',
      latency_ms: 42,
      fell_back: true,
      reply: 'ok',
      attempts: [
        { provider: 'openai', model: 'main-m', reason: 'main', outcome: 'failed', detail: 'overloaded: openai · main-m: 503 key sk-[redacted]' },
        { provider: 'anthropic', model: 'claude-x', reason: 'fallback_providers', outcome: 'served' },
      ],
    });
  });

  it('is a failure with every attempt when no route answered', () => {
    const completion: TaskCompletion = {
      ok: false,
      error: { code: 'overloaded', message: 'openai · m: 503 [tried: openai · m (overloaded)]', afterOutput: false },
      partialText: '',
      report: { slot: 'vision', attempts: [{ provider: 'openai', model: 'm', reason: 'task', outcome: 'failed', detail: 'overloaded: 503' }] },
    };
    expect(slotTestOutcome('vision', completion, 7)).toEqual({
      ok: false,
      task: 'vision',
      error: 'vision: every route failed: openai · m: 503 [tried: openai · m (overloaded)]',
      latency_ms: 7,
      attempts: [{ provider: 'openai', model: 'm', reason: 'task', outcome: 'failed', detail: 'overloaded: 503' }],
    });
  });
});
