import { describe, expect, it } from 'vitest';
import type { TaskReport } from '../routing/call-model.js';
import { usageRecordOf } from './slot-usage.js';

const served: TaskReport = { slot: 'skills_hub', attempts: [], served: { provider: 'openai', model: 'no-price-model', reason: 'task', why: 'pinned' } };

describe('usageRecordOf', () => {
  it('records the served model under the task, the source and the session, cache reads and writes apart', () => {
    const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2, cacheWriteInputTokens: 3 };
    expect(usageRecordOf(served, usage, 1000, { source: 'webhook:pr-review', sessionId: 's1' })).toEqual({
      sessionId: 's1',
      source: 'webhook:pr-review',
      at: 1000,
      provider: 'openai',
      model: 'no-price-model',
      task: 'skills_hub',
      inputTokens: 10,
      outputTokens: 5,
      cachedTokens: 2,
      cacheWriteTokens: 3,
      costUsd: null,
    });
  });

  it('prices cache reads and cache writes at their own rates (claude-sonnet-4-5: input $3, cache read $0.30, cache write $3.75, output $15 a million)', () => {
    const sonnet: TaskReport = { slot: 'main', attempts: [], served: { provider: 'anthropic', model: 'claude-sonnet-4-5', reason: 'task', why: 'pinned' } };
    // 1,000,000 input tokens: 200,000 read from the cache, 300,000 written to it, 500,000 plain; 100,000 out.
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 200_000, cacheWriteInputTokens: 300_000 };
    const record = usageRecordOf(sonnet, usage, 1, { source: 'cli', sessionId: null });
    expect(record?.costUsd).toBeCloseTo(0.5 * 3 + 0.2 * 0.3 + 0.3 * 3.75 + 0.1 * 15, 10);
    expect(record?.costUsd).toBeCloseTo(4.185, 10);
  });

  it('records nothing when no model served or no usage came back', () => {
    const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
    expect(usageRecordOf({ slot: 'skills_hub', attempts: [] }, usage, 1, { source: 'cli', sessionId: null })).toBeUndefined();
    expect(usageRecordOf(served, undefined, 1, { source: 'cli', sessionId: null })).toBeUndefined();
  });
});
