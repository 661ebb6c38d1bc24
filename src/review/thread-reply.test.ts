import { describe, expect, it } from 'vitest';
import { readThreadReply, threadStateChange } from './thread-reply.js';

describe('readThreadReply', () => {
  it('a mention is a question, whatever else it says', () => {
    expect(readThreadReply("@iris why? won't fix otherwise", true)).toBe('question');
  });
  it.each(["Won't fix, this is intended.", 'wontfix', 'wont fix', 'This is not a bug.', 'It is BY DESIGN', 'won’t fix'])('"%s" dismisses', (body) => {
    expect(readThreadReply(body, false)).toBe('dismissal');
  });
  it('anything else is feedback', () => {
    expect(readThreadReply('Good catch, fixed in the next push.', false)).toBe('feedback');
    expect(readThreadReply('This is a bug indeed', false)).toBe('feedback');
  });
});

describe('threadStateChange', () => {
  it.each([
    ['open', true, 'resolved'],
    ['answered', true, 'resolved'],
    ['resolved', false, 'open'],
  ] as const)('%s, its thread resolved=%s: %s', (state, resolved, next) => {
    expect(threadStateChange(state, resolved)).toBe(next);
  });

  it.each([
    ['dismissed', true],
    ['dismissed', false],
    ['outdated', true],
    ['outdated', false],
    ['resolved', true],
    ['open', false],
    ['answered', false],
  ] as const)('%s, its thread resolved=%s: unchanged', (state, resolved) => {
    expect(threadStateChange(state, resolved)).toBeUndefined();
  });
});
