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

  it('records nothing when no model served or no usage came back', () => {
    const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
    expect(usageRecordOf({ slot: 'skills_hub', attempts: [] }, usage, 1, { source: 'cli', sessionId: null })).toBeUndefined();
    expect(usageRecordOf(served, undefined, 1, { source: 'cli', sessionId: null })).toBeUndefined();
  });
});
