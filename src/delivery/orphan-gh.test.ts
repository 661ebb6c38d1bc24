import { describe, expect, it } from 'vitest';
import { isOurGhComment } from './orphan-gh.js';

describe('isOurGhComment', () => {
  const cmdline = (...args: string[]) => `${args.join('\0')}\0`;

  it('is a gh pr comment on the same repository, however gh was started', () => {
    expect(isOurGhComment(cmdline('gh', 'pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'), 'octo/hello')).toBe(true);
    expect(isOurGhComment(cmdline('node', '/tmp/bin/gh', 'pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'), 'octo/hello')).toBe(true);
  });

  it('is not a reused pid running something else, nor gh on another repository', () => {
    expect(isOurGhComment(cmdline('postgres', '-D', '/var/lib/pg'), 'octo/hello')).toBe(false);
    expect(isOurGhComment(cmdline('gh', 'pr', 'comment', '42', '--repo', 'octo/other'), 'octo/hello')).toBe(false);
    expect(isOurGhComment(cmdline('gh', 'api', 'repos/octo/hello/issues/42/comments'), 'octo/hello')).toBe(false);
    expect(isOurGhComment('', 'octo/hello')).toBe(false);
  });
});
