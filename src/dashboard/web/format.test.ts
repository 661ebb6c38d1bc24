import { describe, expect, it } from 'vitest';
import { assignmentText, compactNumber, contextText, costText, isAuto, priceText } from './format.js';

describe('page formatting', () => {
  it('reads assignments the way `iris model` prints them', () => {
    expect(assignmentText({ provider: 'auto', model: '' })).toBe('auto');
    expect(assignmentText({ provider: '', model: '' })).toBe('auto');
    expect(assignmentText({ provider: 'openai', model: 'gpt-4.1' })).toBe('openai · gpt-4.1');
    expect(assignmentText({ provider: 'openai', model: '' })).toBe('openai (default model)');
    expect(assignmentText({ provider: 'auto', model: 'gpt-4.1' })).toBe('auto · gpt-4.1');
    expect(isAuto({ provider: 'auto', model: '' })).toBe(true);
    expect(isAuto({ provider: 'auto', model: 'x' })).toBe(false);
  });

  it('shortens numbers, context lengths, costs and prices', () => {
    expect([0, 999, 1_234, 120_000, 2_500_000, 3_000_000_000].map(compactNumber)).toEqual([
      '0', '999', '1.2k', '120k', '2.5M', '3B',
    ]);
    expect([128_000, 200_000, 1_047_576, 1_048_576].map(contextText)).toEqual([
      '128k context', '200k context', '1M context', '1M context',
    ]);
    expect([null, 0, 0.004, 0.48, 12.5].map(costText)).toEqual(['unknown', '$0.00', '< $0.01', '$0.48', '$12.50']);
    expect(priceText({ id: 'm', price: { input: 3, output: 15 } })).toBe('$3 in · $15 out per M tokens');
    expect(priceText({ id: 'm', price: null })).toBe('');
    expect(priceText(undefined)).toBe('');
  });
});
