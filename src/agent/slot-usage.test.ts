import { describe, expect, it } from 'vitest';
import type { TaskReport } from '../routing/call-model.js';
import { sessionlessUsage } from './slot-usage.js';

const served: TaskReport = { slot: 'skills_hub', attempts: [], served: { provider: 'openai', model: 'no-price-model', reason: 'task', why: 'pinned' } };

describe('sessionlessUsage', () => {
  it('records the served model under the task with no session', () => {
    expect(sessionlessUsage(served, { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 }, 1000)).toEqual({
      sessionId: null, at: 1000, provider: 'openai', model: 'no-price-model', task: 'skills_hub', inputTokens: 10, outputTokens: 5, cachedTokens: 2, costUsd: null,
    });
  });

  it('records nothing when no model served or no usage came back', () => {
    expect(sessionlessUsage({ slot: 'skills_hub', attempts: [] }, { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, 1)).toBeUndefined();
    expect(sessionlessUsage(served, undefined, 1)).toBeUndefined();
  });
});
