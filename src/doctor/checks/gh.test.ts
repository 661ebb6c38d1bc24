import { describe, expect, it } from 'vitest';
import type { GhRun } from '../../delivery/gh-binary.js';
import { checkGh, ghVersion } from './gh.js';

const VERSION: GhRun = { kind: 'exited', exitCode: 0, stdout: 'gh version 2.63.0 (2024-11-27)\nhttps://github.com/cli/cli/releases/tag/v2.63.0\n', stderr: '' };
const SIGNED_IN: GhRun = { kind: 'exited', exitCode: 0, stdout: 'github.com\n  ✓ Logged in to github.com account me (keyring)\n', stderr: '' };
const SIGNED_OUT: GhRun = { kind: 'exited', exitCode: 1, stdout: '', stderr: 'You are not logged into any GitHub hosts. To log in, run: gh auth login\n' };
const INSTALL = 'install the GitHub CLI (https://cli.github.com) and run gh auth login, or set IRIS_GH_BIN to its path';
const LOGIN = 'run gh auth login on this machine, or set GH_TOKEN: iris config set GH_TOKEN <token>';

describe('checkGh', () => {
  it('found and signed in', () => {
    expect(checkGh({ bin: 'gh', version: VERSION, auth: SIGNED_IN }, ['pr-review'])).toEqual({
      id: 'gh',
      name: 'gh',
      status: 'ok',
      finding: 'gh 2.63.0, signed in; route pr-review delivers forge_comment',
    });
  });

  it.each([
    [{ bin: 'gh', version: { kind: 'not_started', errno: 'ENOENT', message: 'spawn gh ENOENT' } }, 'gh not found; routes a, b deliver forge_comment', INSTALL],
    [{ bin: 'gh', version: VERSION, auth: SIGNED_OUT }, 'gh 2.63.0 is not signed in; routes a, b deliver forge_comment', LOGIN],
    [
      { bin: '/opt/gh', version: { kind: 'not_started', errno: 'EACCES', message: 'spawn EACCES' } },
      '/opt/gh --version could not be started (EACCES); routes a, b deliver forge_comment',
      'check that IRIS_GH_BIN (or gh on PATH) is the GitHub CLI and that you may run it',
    ],
    [
      { bin: 'gh', version: { kind: 'timeout', stderr: '' } },
      'gh --version gave no answer within 5 s; routes a, b deliver forge_comment',
      'check that IRIS_GH_BIN (or gh on PATH) is the GitHub CLI and that you may run it',
    ],
    [
      { bin: 'gh', version: VERSION, auth: { kind: 'timeout', stderr: '' } },
      'gh 2.63.0: gh auth status gave no answer within 5 s; routes a, b deliver forge_comment',
      'run gh auth status on this machine to see why',
    ],
  ] as const)('%#: fails with the fix', (facts, finding, fix) => {
    expect(checkGh(facts, ['a', 'b'])).toEqual({ id: 'gh', name: 'gh', status: 'fail', finding, fix });
  });

  it('reads the version line', () => {
    expect(ghVersion('gh version 2.40.1 (2023-12-13)\n')).toBe('gh 2.40.1');
    expect(ghVersion('something else')).toBe('gh (version unknown)');
  });
});
