import { describe, expect, it } from 'vitest';
import { buildDescribePrompt, parseDescription } from './describe-prompt.js';

describe('parseDescription', () => {
  it('joins lines into one paragraph', () => {
    expect(parseDescription('  A profile for\n  code review.\n\n')).toEqual({ ok: true, description: 'A profile for code review.' });
  });

  it.each(['', '   ', '\n\t\n'])('refuses a blank answer %j as malformed', (text) => {
    expect(parseDescription(text)).toEqual({ ok: false, reason: 'the profile_describer model gave a blank answer (malformed)' });
  });
});

describe('buildDescribePrompt', () => {
  it('masks secrets, leaves out the old description and lists skills and titles', () => {
    const prompt = buildDescribePrompt({
      name: 'work',
      config: { description: 'old words', model: { provider: 'openai', default: 'm' }, platforms: { webhook: { secret: 'hush-hush-hush-hush-1234' } } },
      skills: [{ name: 'review', description: 'reviews PRs' }],
      sessionTitles: ['Fix the build'],
    });
    expect(prompt).toBe(
      [
        'Profile: work',
        'Config (secrets masked): {"model":{"provider":"openai","default":"m"},"platforms":{"webhook":{"secret":"hus…1234"}}}',
        'Skills: review: reviews PRs',
        'Recent session titles: Fix the build',
      ].join('\n'),
    );
  });
});
