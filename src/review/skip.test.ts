import { describe, expect, it } from 'vitest';
import { defaultReviewRules } from './rules.js';
import { reviewSkipReason } from './skip.js';

const PR = { draft: false, authorIsBot: false, title: 'Fix the parser' };
const rules = (skip: Partial<{ drafts: boolean; bots: boolean; titleKeywords: string[] }>) => ({ skip: { ...defaultReviewRules().skip, ...skip } });

describe('reviewSkipReason', () => {
  it('reviews an ordinary PR', () => {
    expect(reviewSkipReason(defaultReviewRules(), PR)).toBeUndefined();
  });

  it('skips drafts and bots by default, and not when the rules say so', () => {
    expect(reviewSkipReason(defaultReviewRules(), { ...PR, draft: true })).toBe('the pull request is a draft (.iris/review.yaml skip.drafts)');
    expect(reviewSkipReason(defaultReviewRules(), { ...PR, authorIsBot: true })).toBe('the pull request was opened by a bot (.iris/review.yaml skip.bots)');
    expect(reviewSkipReason(rules({ drafts: false }), { ...PR, draft: true })).toBeUndefined();
    expect(reviewSkipReason(rules({ bots: false }), { ...PR, authorIsBot: true })).toBeUndefined();
  });

  it('skips a title with a keyword, whatever its case and place', () => {
    const wip = rules({ titleKeywords: ['WIP', 'do not review'] });
    expect(reviewSkipReason(wip, { ...PR, title: '[wip] parser' })).toBe('the title contains "WIP" (.iris/review.yaml skip.title_keywords)');
    expect(reviewSkipReason(wip, { ...PR, title: 'Parser: DO NOT REVIEW yet' })).toBe('the title contains "do not review" (.iris/review.yaml skip.title_keywords)');
    expect(reviewSkipReason(wip, { ...PR, title: 'Wiping the cache' })).toBeUndefined();
  });
});
