import { describe, expect, it } from 'vitest';
import { addUsage, NO_USAGE } from './turn-usage.js';

describe('addUsage', () => {
  it('sums calls, tokens and known costs', () => {
    const one = addUsage(NO_USAGE, { inputTokens: 100, outputTokens: 10, cachedInputTokens: 40, cacheWriteInputTokens: 0 }, 0.25);
    expect(addUsage(one, { inputTokens: 5, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 }, 0.5)).toEqual({ calls: 2, inputTokens: 105, outputTokens: 11, costUsd: 0.75 });
  });
  it('turns the cost unknown for good once one call has no price', () => {
    const unknown = addUsage(NO_USAGE, { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 }, null);
    expect(unknown.costUsd).toBeNull();
    expect(addUsage(unknown, { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteInputTokens: 0 }, 1).costUsd).toBeNull();
  });
});
