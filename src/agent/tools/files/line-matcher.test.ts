import { describe, expect, it } from 'vitest';
import { createLineMatcher } from './line-matcher.js';

describe('createLineMatcher', () => {
  it('returns the matching line numbers of each text, up to the limit in all', () => {
    const matcher = createLineMatcher('o+', '');
    expect(matcher.match(['foo\nbar\nboo', 'x\r\nyo'], 10, 1_000)).toEqual([[0, 2], [1]]);
    expect(matcher.match(['foo\nbar\nboo', 'x\r\nyo'], 2, 1_000)).toEqual([[0, 2], []]);
    expect(createLineMatcher('FOO', 'i').match(['foo'], 1, 1_000)).toEqual([[0]]);
  });

  it('stops a catastrophically backtracking pattern at the time limit', () => {
    const matcher = createLineMatcher('^(a+)+$', '');
    const begin = Date.now();
    expect(matcher.match([`${'a'.repeat(40)}!`], 10, 200)).toBeUndefined();
    expect(Date.now() - begin).toBeLessThan(2_000);
    expect(matcher.match(['aaa'], 10, 0)).toBeUndefined();
  });
});
