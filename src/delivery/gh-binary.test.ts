// Finding gh, its environment, and how a run of it ends, against small stand-in programs (POSIX
// scripts, so not on Windows). The gh behaviours themselves are tested with the fake gh in
// forge-comment.test.ts.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GH_OUTPUT_CAP_BYTES, buildGhEnv, ghBinary, runGh } from './gh-binary.js';

describe('ghBinary', () => {
  it('is IRIS_GH_BIN when set, else gh from PATH', () => {
    expect(ghBinary({ IRIS_GH_BIN: '/opt/gh/bin/gh' })).toBe('/opt/gh/bin/gh');
    expect(ghBinary({ IRIS_GH_BIN: '  ' })).toBe('gh');
    expect(ghBinary({})).toBe('gh');
  });
});

describe('buildGhEnv', () => {
  const env = buildGhEnv({
    PATH: '/usr/bin',
    HOME: '/home/iris',
    GH_TOKEN: 'gho_token',
    GITHUB_TOKEN: 'ghs_token',
    GH_ENTERPRISE_TOKEN: 'ghe_token',
    GH_HOST: 'github.example.com',
    GH_CONFIG_DIR: '/home/iris/.config/gh',
    XDG_CONFIG_HOME: '/home/iris/.config',
    HTTPS_PROXY: 'http://proxy:3128',
    NO_PROXY: 'localhost',
    OPENROUTER_API_KEY: 'sk-or-x',
    OPENAI_API_KEY: 'sk-x',
    AWS_SECRET_ACCESS_KEY: 'aws',
    WEBHOOK_SECRET: 'whsec',
    CLOUD_CLIENT_SECRET: 'cs',
    GH_DEBUG: 'api',
    GH_PROMPT_DISABLED: '0',
    EMPTY: undefined,
  });

  it('keeps what gh needs to find its account and reach GitHub', () => {
    expect(env).toMatchObject({
      PATH: '/usr/bin',
      HOME: '/home/iris',
      GH_TOKEN: 'gho_token',
      GITHUB_TOKEN: 'ghs_token',
      GH_ENTERPRISE_TOKEN: 'ghe_token',
      GH_HOST: 'github.example.com',
      GH_CONFIG_DIR: '/home/iris/.config/gh',
      XDG_CONFIG_HOME: '/home/iris/.config',
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: 'localhost',
    });
  });

  it('drops every other credential, and gh debug output', () => {
    for (const name of ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'WEBHOOK_SECRET', 'CLOUD_CLIENT_SECRET', 'GH_DEBUG', 'EMPTY']) {
      expect(env).not.toHaveProperty(name);
    }
  });

  it('turns prompts and the update check off', () => {
    expect(env).toMatchObject({ GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1' });
  });
});

describe.skipIf(process.platform === 'win32')('runGh', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-gh-bin-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function script(name: string, body: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/usr/bin/env node\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  }

  const run = (bin: string, stdin = '', timeoutMs = 5_000, signal?: AbortSignal) =>
    runGh({ bin, args: ['a', 'b c'], stdin, env: { PATH: process.env.PATH ?? '' }, timeoutMs, ...(signal ? { signal } : {}) });

  it('passes argv as given, the body on stdin, and runs in the temp directory', async () => {
    const bin = await script(
      'echo',
      "const fs = await import('node:fs'); process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), stdin: fs.readFileSync(0, 'utf8'), cwd: process.cwd() }));",
    );
    const result = await run(bin, 'the $(body) `here`');
    expect(result.kind).toBe('exited');
    const seen = JSON.parse(result.kind === 'exited' ? result.stdout : '{}') as unknown;
    expect(seen).toEqual({ argv: ['a', 'b c'], stdin: 'the $(body) `here`', cwd: tmpdir() });
  });

  it('reports the exit code and both streams of a failed run', async () => {
    const bin = await script('fails', "process.stdout.write('out'); process.stderr.write('err'); process.exitCode = 3;");
    expect(await run(bin)).toEqual({ kind: 'exited', exitCode: 3, stdout: 'out', stderr: 'err' });
  });

  it('tells a binary that is not there or not executable from one that failed', async () => {
    expect(await run(join(dir, 'missing'))).toMatchObject({ kind: 'not_started', errno: 'ENOENT' });
    const plain = join(dir, 'not-executable');
    await writeFile(plain, '#!/bin/sh\n');
    expect(await run(plain)).toMatchObject({ kind: 'not_started', errno: 'EACCES' });
  });

  it('stops a chatty child at the output cap', async () => {
    const bin = await script('chatty', `process.stderr.write('x'.repeat(${GH_OUTPUT_CAP_BYTES * 4})); setTimeout(() => {}, 10_000);`);
    expect(await run(bin)).toMatchObject({ kind: 'output_overflow' });
  });

  it('takes a larger cap when asked (reads of a PR print far more than a comment URL)', async () => {
    const size = GH_OUTPUT_CAP_BYTES * 4;
    const bin = await script('reader', `process.stdout.write('x'.repeat(${size}));`);
    const result = await runGh({ bin, args: [], stdin: '', env: { PATH: process.env.PATH ?? '' }, timeoutMs: 5_000, outputCapBytes: size + 1 });
    expect(result.kind === 'exited' && result.stdout.length).toBe(size);
    expect(await runGh({ bin, args: [], stdin: '', env: { PATH: process.env.PATH ?? '' }, timeoutMs: 5_000, outputCapBytes: size - 1 })).toMatchObject({ kind: 'output_overflow' });
  });

  it('kills a run that outlives its timeout', async () => {
    const bin = await script('slow', "process.stderr.write('working\\n'); setTimeout(() => {}, 60_000);");
    const started = Date.now();
    expect(await run(bin, '', 200)).toEqual({ kind: 'timeout', stderr: 'working\n' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a cancel, before the start or during the run', async () => {
    const bin = await script('slow2', 'setTimeout(() => {}, 60_000);');
    expect(await run(bin, '', 5_000, AbortSignal.abort())).toEqual({ kind: 'cancelled' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await run(bin, '', 5_000, controller.signal)).toEqual({ kind: 'cancelled' });
  });

  it('a cancel kills the whole process group: a wrapper\'s own child too, and onSpawn named the group', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const bin = join(dir, 'wrapper');
    // A wrapper that does not exec: gh (here a sleep) is its child, which killing the wrapper alone would orphan.
    await writeFile(bin, `#!/bin/sh\nsleep 60 &\necho $! > '${pidFile}'\nwait\n`);
    await chmod(bin, 0o755);
    const controller = new AbortController();
    const spawned: number[] = [];
    const running = runGh({ bin, args: [], stdin: '', env: { PATH: process.env.PATH ?? '' }, timeoutMs: 5_000, signal: controller.signal, onSpawn: (pid) => spawned.push(pid) });
    let grandchild = 0;
    for (let i = 0; i < 100 && grandchild === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      grandchild = Number((await readFile(pidFile, 'utf8').catch(() => '0')).trim()) || 0;
    }
    expect(grandchild).toBeGreaterThan(0);
    expect(spawned).toHaveLength(1);
    controller.abort();
    expect(await running).toEqual({ kind: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Gone, or dead and waiting for init to reap it (state Z): either way it runs no more.
    const stat = await readFile(`/proc/${grandchild}/stat`, 'utf8').catch(() => 'gone');
    expect(stat === 'gone' ? 'gone' : stat.split(') ')[1]![0]).toMatch(/^(gone|Z)$/);
  });

  it('reports a signal it did not send', async () => {
    const bin = await script('self-kill', "process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5_000);");
    expect(await run(bin)).toMatchObject({ kind: 'killed', signal: 'SIGTERM' });
  });
});
