// The prompts of a PR route: the note of an incremental review for every commit relation, and the
// prompt of each command.
import { describe, expect, it } from 'vitest';
import type { PrEvent } from './pr-event.js';
import { commandPrompt, pushReviewNote } from './pr-prompt.js';

const OLD = '0123456789abcdef0123456789abcdef01234567';
const NEW = 'fedcba9876543210fedcba9876543210fedcba98';

describe('pushReviewNote', () => {
  it('ahead: the compare range and the commit count (plural)', () => {
    expect(pushReviewNote({ reviewedSha: OLD, headSha: NEW, relation: 'ahead', commits: 3 })).toBe(
      [
        'New commits were pushed since your last review of this pull request (above in this conversation).',
        `Review only these commits: 0123456789ab..fedcba987654 (compare range ${OLD}..${NEW}, 3 commits).`,
        'Do not repeat findings from your earlier review unless these commits change them.',
      ].join('\n'),
    );
  });

  it('ahead by one commit is singular', () => {
    expect(pushReviewNote({ reviewedSha: OLD, headSha: NEW, relation: 'ahead', commits: 1 })).toContain(`(compare range ${OLD}..${NEW}, 1 commit).`);
  });

  it.each(['lost', 'diverged', 'behind'] as const)('%s: a full review', (relation) => {
    expect(pushReviewNote({ reviewedSha: OLD, headSha: NEW, relation, commits: 0 })).toBe(
      'The commit you last reviewed (0123456789ab) is no longer part of this branch (a force-push rewrote it), so this is a full review: review the whole pull request again at fedcba987654.',
    );
  });

  it('identical: nothing new', () => {
    expect(pushReviewNote({ reviewedSha: NEW, headSha: NEW, relation: 'identical', commits: 0 })).toBe('No new commits since your last review (fedcba987654).');
  });

  it('unknown relation: a full review, saying why', () => {
    expect(pushReviewNote({ reviewedSha: OLD, headSha: NEW, relation: undefined, commits: 0 })).toBe(
      'The code host could not say how fedcba987654 relates to your last review (0123456789ab), so this is a full review: review the whole pull request again.',
    );
  });
});

describe('commandPrompt', () => {
  const pr: PrEvent = {
    forge: 'github',
    repo: 'octo/widgets',
    number: 12,
    title: 'Add the frobnicator',
    kind: 'comment',
    comment: { id: '1', body: '', author: 'bob', created: true },
  };

  it('review', () => {
    expect(commandPrompt({ kind: 'review' }, pr, 'bob')).toBe(
      '@bob asked for a full review of pull request octo/widgets#12 ("Add the frobnicator") with /review. Review the whole pull request.',
    );
  });

  it('describe', () => {
    expect(commandPrompt({ kind: 'describe' }, pr, 'bob')).toBe(
      '@bob asked with /describe for a description of pull request octo/widgets#12 ("Add the frobnicator"): write one for its reviewers (what it changes and why, how to test it), in Markdown.',
    );
  });

  it('ask', () => {
    expect(commandPrompt({ kind: 'ask', question: 'Why a map?\nNot a set?' }, pr, 'bob')).toBe(
      '@bob asks about pull request octo/widgets#12 ("Add the frobnicator") with /ask:\n\nWhy a map?\nNot a set?\n\nAnswer the question; your answer is posted as a reply on the pull request.',
    );
  });

  it('mention', () => {
    expect(commandPrompt({ kind: 'mention', text: '@iris thoughts?' }, pr, 'bob')).toBe(
      '@bob wrote to you on pull request octo/widgets#12 ("Add the frobnicator"):\n\n@iris thoughts?\n\nAnswer them; your answer is posted as a reply on the pull request.',
    );
  });

  it('leaves out the title when the event has none', () => {
    const untitled: PrEvent = { forge: 'github', repo: 'octo/widgets', number: 12, kind: 'comment', comment: { id: '1', body: '', author: 'bob', created: true } };
    expect(commandPrompt({ kind: 'review' }, untitled, 'bob')).toBe('@bob asked for a full review of pull request octo/widgets#12 with /review. Review the whole pull request.');
  });
});
