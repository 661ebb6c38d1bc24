import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOurGhComment, reapOrphanedGh } from './orphan-gh.js';

describe('isOurGhComment', () => {
  const cmdline = (...args: string[]) => `${args.join('\0')}\0`;

  it('is a gh pr comment on the same repository, however gh was started', () => {
    expect(isOurGhComment(cmdline('gh', 'pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'), 'octo/hello')).toBe(true);
    expect(isOurGhComment(cmdline('node', '/tmp/bin/gh', 'pr', 'comment', '42', '--repo', 'octo/hello', '--body-file', '-'), 'octo/hello')).toBe(true);
  });

  it('is a gh api write of a comment on the same repository (the PR-review deliveries)', () => {
    expect(isOurGhComment(cmdline('gh', 'api', '--method', 'POST', 'repos/octo/hello/issues/42/comments', '--input', '-'), 'octo/hello')).toBe(true);
    expect(isOurGhComment(cmdline('node', '/tmp/bin/gh', 'api', '--method', 'PATCH', 'repos/octo/hello/issues/comments/2000000001', '--input', '-'), 'octo/hello')).toBe(true);
  });

  it('is not a reused pid running something else, nor gh on another repository', () => {
    expect(isOurGhComment(cmdline('postgres', '-D', '/var/lib/pg'), 'octo/hello')).toBe(false);
    expect(isOurGhComment(cmdline('gh', 'pr', 'comment', '42', '--repo', 'octo/other'), 'octo/hello')).toBe(false);
    // A read (the marker search) is not a write that could post.
    expect(isOurGhComment(cmdline('gh', 'api', 'repos/octo/hello/issues/42/comments'), 'octo/hello')).toBe(false);
    expect(isOurGhComment(cmdline('gh', 'api', '--paginate', 'repos/octo/hello/issues/42/comments?per_page=100', '--jq', 'x'), 'octo/hello')).toBe(false);
    expect(isOurGhComment(cmdline('gh', 'api', '--method', 'POST', 'repos/octo/other/issues/42/comments', '--input', '-'), 'octo/hello')).toBe(false);
    expect(isOurGhComment('', 'octo/hello')).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('reapOrphanedGh', () => {
  it('kills a gh comment left running (its whole group), and leaves anything else alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'iris-orphan-'));
    try {
      const gh = join(dir, 'gh');
      await writeFile(gh, '#!/bin/sh\nsleep 30 &\nwait\n');
      await chmod(gh, 0o755);
      const start = (repo: string) => spawn(gh, ['pr', 'comment', '42', '--repo', repo, '--body-file', '-'], { detached: true, stdio: 'ignore' });
      const other = start('octo/other');
      const ours = start('octo/hello');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await reapOrphanedGh(other.pid!, 'octo/hello')).toBe('none');
      expect(await reapOrphanedGh(ours.pid!, 'octo/hello')).toBe('reaped');
      expect(await reapOrphanedGh(ours.pid!, 'octo/hello')).toBe('none');
      expect(other.exitCode).toBeNull();
      process.kill(-other.pid!, 'SIGKILL');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
