import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapArgv, sandboxEnv, workspaceProblem } from './bwrap-argv.js';
import { BWRAP_MISSING, findBwrap } from './find-bwrap.js';
import { commandToStart } from './sandbox-command.js';
import { describePlan, planSandbox } from './settings.js';

describe('which runs are sandboxed', () => {
  it.each([
    ['auto', 'gateway', {}, { kind: 'bubblewrap', network: false, passEnv: [] }],
    ['auto', 'cli', {}, { kind: 'off' }],
    ['bubblewrap', 'cli', {}, { kind: 'bubblewrap', network: false, passEnv: [] }],
    ['off', 'gateway', {}, { kind: 'off' }],
    ['auto', 'gateway', { sandbox: 'off' }, { kind: 'off' }],
    ['off', 'gateway', { sandbox: 'bubblewrap' }, { kind: 'bubblewrap', network: false, passEnv: [] }],
    ['auto', 'gateway', { sandbox_network: true, sandbox_env: ['GH_TOKEN', 'GH_TOKEN', 'CI'] }, { kind: 'bubblewrap', network: true, passEnv: ['GH_TOKEN', 'CI'] }],
  ] as const)('%s for a %s run with route %j', (sandbox, runKind, route, plan) => {
    expect(planSandbox({ sandbox, network: false }, runKind, route)).toEqual(plan);
  });

  it('takes tools.terminal.network unless the route says otherwise, and names the plan', () => {
    expect(planSandbox({ sandbox: 'auto', network: true }, 'gateway')).toEqual({ kind: 'bubblewrap', network: true, passEnv: [] });
    expect(planSandbox({ sandbox: 'auto', network: true }, 'gateway', { sandbox_network: false })).toMatchObject({ network: false });
    expect(describePlan({ kind: 'bubblewrap', network: false, passEnv: ['CI'] })).toBe('bubblewrap (network off, env CI)');
    expect(describePlan({ kind: 'off' })).toBe('off');
  });
});

describe('the bubblewrap command line', () => {
  const base = {
    workspace: '/srv/work',
    cwd: '/srv/work/src',
    network: false,
    systemPaths: [
      { path: '/usr', kind: 'dir' as const },
      { path: '/bin', kind: 'symlink' as const, target: 'usr/bin' },
      { path: '/etc', kind: 'dir' as const },
    ],
    hidden: ['/srv/work/.iris', '/root', '/srv/work/.iris/profiles/x'],
    etcSecrets: { files: ['/etc/shadow'], dirs: ['/etc/ssh'] },
    shell: '/bin/bash',
    command: 'ls -la; cat "$HOME/x"',
  };

  it('isolates everything but the workspace, and the network unless shared', () => {
    expect(bwrapArgv(base)).toEqual([
      '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net',
      '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
      '--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--ro-bind', '/etc', '/etc',
      '--ro-bind', '/dev/null', '/etc/shadow', '--tmpfs', '/etc/ssh',
      '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
      '--bind', '/srv/work', '/srv/work',
      '--tmpfs', '/srv/work/.iris', '--tmpfs', '/srv/work/.iris/profiles/x',
      '--chdir', '/srv/work/src', '--', '/bin/bash', '-c', 'ls -la; cat "$HOME/x"',
    ]);
    expect(bwrapArgv({ ...base, network: true })).not.toContain('--unshare-net');
  });

  it('refuses a workspace that would show a home or the system', () => {
    const homes = { home: '/root', irisHomes: ['/root/.iris'] };
    expect(workspaceProblem('/root/proj', homes)).toBeUndefined();
    expect(workspaceProblem('/tmp/ws', homes)).toBeUndefined();
    expect(workspaceProblem('/root', homes)).toBe('the workspace /root is the home folder, which the sandbox never shows; set agent.workspace to a project folder');
    expect(workspaceProblem('/root/.iris/skills', homes)).toContain("inside Iris's home /root/.iris");
    expect(workspaceProblem('/', homes)).toContain('is a system folder');
    expect(workspaceProblem('/etc/x', homes)).toContain('is a system folder');
    expect(workspaceProblem('/etcetera', homes)).toBeUndefined();
  });

  it('clears the environment to the allowlist, HOME the workspace, plus the names a route passes', () => {
    const env = { PATH: '/usr/bin', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-secret', IRIS_HOME: '/root/.iris', HOME: '/root', GH_TOKEN: 'ghp_x', TERM: 'xterm' };
    expect(sandboxEnv(env, '/srv/work', [])).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', TERM: 'xterm', HOME: '/srv/work', TMPDIR: '/tmp' });
    expect(sandboxEnv(env, '/srv/work', ['GH_TOKEN', 'NOT_SET'])).toEqual({ PATH: '/usr/bin', LANG: 'C.UTF-8', TERM: 'xterm', GH_TOKEN: 'ghp_x', HOME: '/srv/work', TMPDIR: '/tmp' });
    expect(sandboxEnv({}, '/w', [])).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/w', TMPDIR: '/tmp' });
  });
});

describe('starting a command', () => {
  it('without bubblewrap on PATH: the tool error naming the package, nothing unsandboxed', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'iris-nobwrap-'));
    try {
      expect(findBwrap(empty)).toBeUndefined();
      const start = commandToStart({ kind: 'bubblewrap', network: false, passEnv: [] }, { shell: '/bin/bash', command: 'id', workspace: empty, cwd: empty, env: {} }, { env: { PATH: empty }, home: undefined, irisHomes: [] });
      expect(start).toEqual({ ok: false, error: BWRAP_MISSING });
      expect(BWRAP_MISSING).toBe('the sandbox needs bubblewrap: apt-get install bubblewrap');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('off: the shell as today, with the environment it was given', () => {
    expect(commandToStart({ kind: 'off' }, { shell: '/bin/sh', command: 'id', workspace: '/w', cwd: '/w', env: { A: '1' } }, { env: {}, home: undefined, irisHomes: [] })).toEqual({
      ok: true, file: '/bin/sh', args: ['-c', 'id'], env: { A: '1' },
    });
  });

  it('finds bwrap on PATH, and hides a profile home and its base', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'iris-bwrap-'));
    try {
      await mkdir(join(dir, 'bin'));
      await writeFile(join(dir, 'bin', 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
      expect(findBwrap(`/nonexistent:${join(dir, 'bin')}`)).toBe(join(dir, 'bin', 'bwrap'));
      const start = commandToStart(
        { kind: 'bubblewrap', network: true, passEnv: [] },
        { shell: '/bin/sh', command: 'id', workspace: join(dir, 'ws'), cwd: join(dir, 'ws'), env: {} },
        { env: { PATH: join(dir, 'bin') }, home: '/root', irisHomes: [join(dir, 'ws', 'home', 'profiles', 'work')] },
      );
      expect(start.ok).toBe(true);
      const args = start.ok ? start.args : [];
      expect(args.join(' ')).toContain(`--tmpfs ${join(dir, 'ws', 'home')} --tmpfs ${join(dir, 'ws', 'home', 'profiles', 'work')}`);
      expect(commandToStart({ kind: 'bubblewrap', network: true, passEnv: [] }, { shell: '/bin/sh', command: 'id', workspace: join(dir, 'home', 'x'), cwd: join(dir, 'home', 'x'), env: {} }, { env: { PATH: join(dir, 'bin') }, home: undefined, irisHomes: [join(dir, 'home', 'profiles', 'work')] })).toEqual({
        ok: false,
        error: `command not run: the workspace ${join(dir, 'home', 'x')} is inside Iris's home ${join(dir, 'home')}, which the sandbox never shows; set agent.workspace to a project folder`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
