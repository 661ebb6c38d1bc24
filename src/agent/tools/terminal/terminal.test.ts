import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeContext, makeTempDirs, type TempDirs } from '../test-support.js';
import { createTerminalTool } from './terminal.js';

let dirs: TempDirs;
const started: number[] = [];

beforeEach(async () => {
  dirs = await makeTempDirs();
});

afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  vi.unstubAllEnvs();
  await dirs.cleanup();
});

/** Alive and not a zombie (a container's PID 1 may never reap an orphan). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync(`/proc/${pid}/stat`)) return true;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

async function waitUntilGone(pid: number, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isAlive(pid);
}

async function readPid(file: string): Promise<number> {
  const pid = Number((await readFile(join(dirs.workspace, file), 'utf8')).trim());
  started.push(pid);
  return pid;
}

describe('run_command', () => {
  it('runs a command in the workspace after approval and reports exit code and output', async () => {
    const context = makeContext(dirs);
    const result = await createTerminalTool().run({ command: 'echo hello' }, context);
    expect(result).toEqual({ ok: true, content: 'exit code: 0\nstdout:\nhello\nstderr: (empty)' });
    expect(context.requests).toEqual([{ command: 'echo hello', cwd: dirs.workspace }]);
  });

  it('reports a non-zero exit code and stderr as a failed result', async () => {
    const result = await createTerminalTool().run({ command: "sh -c 'exit 3'" }, makeContext(dirs));
    expect(result).toEqual({ ok: false, content: 'exit code: 3\nstdout: (empty)\nstderr: (empty)' });
    const noisy = await createTerminalTool().run({ command: 'echo out; echo oops >&2; exit 1' }, makeContext(dirs));
    expect(noisy).toEqual({ ok: false, content: 'exit code: 1\nstdout:\nout\nstderr:\noops' });
  });

  it('runs in a cwd relative to the workspace root, and asks approval with its real path', async () => {
    await mkdir(join(dirs.workspace, 'sub'));
    const context = makeContext(dirs);
    const result = await createTerminalTool().run({ command: 'pwd', cwd: 'sub' }, context);
    expect(result.content).toBe(`exit code: 0\nstdout:\n${join(dirs.workspace, 'sub')}\nstderr: (empty)`);
    expect(context.requests).toEqual([{ command: 'pwd', cwd: join(dirs.workspace, 'sub') }]);
  });

  it('refuses a cwd outside the workspace or that is not a folder, without asking approval', async () => {
    await writeFile(join(dirs.workspace, 'file.txt'), 'x');
    const context = makeContext(dirs);
    const tool = createTerminalTool();
    expect(await tool.run({ command: 'pwd', cwd: '..' }, context)).toEqual({
      ok: false,
      content: 'command not run: path ".." is outside the workspace',
    });
    expect(await tool.run({ command: 'pwd', cwd: '/' }, context)).toEqual({
      ok: false,
      content: 'command not run: path "/" is outside the workspace',
    });
    expect(await tool.run({ command: 'pwd', cwd: 'file.txt' }, context)).toEqual({
      ok: false,
      content: 'command not run: cwd "file.txt" is not a folder in the workspace',
    });
    expect(context.requests).toEqual([]);
  });

  it('does not run a denied command, and says why', async () => {
    const context = makeContext(dirs, {
      decision: { approved: false, reason: 'denied by the user', by: 'user', risk: { level: 'high', reasons: [], source: 'model' } },
    });
    const result = await createTerminalTool().run({ command: 'touch ran.txt' }, context);
    expect(result).toEqual({ ok: false, content: 'command not run: denied by the user' });
    expect(existsSync(join(dirs.workspace, 'ran.txt'))).toBe(false);
  });

  it('on timeout stops the command and the processes it started', async () => {
    const begin = Date.now();
    const command = "sh -c 'sleep 30 & echo $! > grandchild.pid; wait'; echo never";
    const result = await createTerminalTool().run({ command, timeout_seconds: 0.5 }, makeContext(dirs));
    expect(Date.now() - begin).toBeLessThan(5_000);
    expect(result).toEqual({
      ok: false,
      content:
        'timed out after 0.5 s: the command and every process it started were stopped\n' +
        'exit code: none (ended by SIGTERM)\nstdout: (empty)\nstderr: (empty)',
    });
    expect(await waitUntilGone(await readPid('grandchild.pid'))).toBe(true);
  });

  it('escalates to SIGKILL for a command that ignores SIGTERM', async () => {
    const tool = createTerminalTool({ killGraceMs: 200 });
    const command = "trap '' TERM; sleep 30 & echo $! > child.pid; while :; do sleep 0.05; done";
    const result = await tool.run({ command, timeout_seconds: 0.3 }, makeContext(dirs));
    expect(result.content.split('\n').slice(0, 2)).toEqual([
      'timed out after 0.3 s: the command and every process it started were stopped',
      'exit code: none (ended by SIGKILL)',
    ]);
    expect(await waitUntilGone(await readPid('child.pid'))).toBe(true);
  });

  it('stops the command when the run is cancelled', async () => {
    const controller = new AbortController();
    const running = createTerminalTool().run(
      { command: 'sleep 30 & echo $! > child.pid; wait' },
      makeContext(dirs, { signal: controller.signal }),
    );
    const pidFile = join(dirs.workspace, 'child.pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await running;
    expect(result).toEqual({
      ok: false,
      content:
        'cancelled: the command and every process it started were stopped\n' +
        'exit code: none (ended by SIGTERM)\nstdout: (empty)\nstderr: (empty)',
    });
    expect(await waitUntilGone(await readPid('child.pid'))).toBe(true);
  });

  it('does not start a command when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createTerminalTool().run({ command: 'touch ran.txt' }, makeContext(dirs, { signal: controller.signal }));
    expect(result).toEqual({ ok: false, content: 'command not run: the run was cancelled' });
    expect(existsSync(join(dirs.workspace, 'ran.txt'))).toBe(false);
  });

  it('keeps the head and tail of long output and says how much was cut', async () => {
    const tool = createTerminalTool({ maxOutputBytes: 1_000 });
    const result = await tool.run({ command: "head -c 5000 /dev/zero | tr '\\0' a; head -c 1200 /dev/zero | tr '\\0' b >&2" }, makeContext(dirs));
    expect(result.content).toBe(
      'exit code: 0\n' +
        `stdout:\n${'a'.repeat(500)}\n[… 4000 bytes cut …]\n${'a'.repeat(500)}\n` +
        `stderr:\n${'b'.repeat(500)}\n[… 200 bytes cut …]\n${'b'.repeat(500)}`,
    );
  });

  it('caps stdout at 32 KiB by default', async () => {
    const result = await createTerminalTool().run({ command: 'seq 1 100000' }, makeContext(dirs));
    const total = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('').length;
    const stdout = result.content.slice('exit code: 0\nstdout:\n'.length, result.content.lastIndexOf('\nstderr:'));
    expect(stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(stdout.endsWith('99999\n100000')).toBe(true);
    expect(stdout).toContain(`\n[… ${total - 32 * 1024} bytes cut …]\n`);
  });

  it('takes secrets out of the environment the command sees', async () => {
    const tool = createTerminalTool({
      env: {
        PATH: process.env.PATH,
        OPENAI_API_KEY: 'sk-test-0123456789abcdef',
        GITHUB_TOKEN: 'ghp_test',
        WEBHOOK_SECRET: 'shh',
        DB_PASSWORD: 'pw',
        CLOUD_CLIENT_SECRET: 'cs',
        CLOUD_TENANT_ID: 'tenant',
        CLOUD_CLIENT_ID: 'client',
        CLOUD_FEDERATED_TOKEN_FILE: '/var/run/token',
        AZURE_CLIENT_CERTIFICATE_PATH: '/cert.pem',
        IDENTITY_HEADER: 'header',
        KEEP_ME: 'visible',
      },
    });
    const result = await tool.run({ command: 'env | sort; echo "[$OPENAI_API_KEY]"' }, makeContext(dirs));
    const names = result.content
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(names).toContain('KEEP_ME');
    expect(names).toContain('PATH');
    for (const secret of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'WEBHOOK_SECRET', 'DB_PASSWORD', 'CLOUD_CLIENT_SECRET', 'CLOUD_TENANT_ID', 'CLOUD_CLIENT_ID', 'CLOUD_FEDERATED_TOKEN_FILE', 'AZURE_CLIENT_CERTIFICATE_PATH', 'IDENTITY_HEADER']) {
      expect(names).not.toContain(secret);
    }
    expect(result.content).toContain('\n[]\n');
    expect(result.content).not.toContain('sk-test');
  });

  it('takes secrets out of the service environment by default', async () => {
    vi.stubEnv('IRIS_TEST_API_KEY', 'sk-test-from-process-env');
    vi.stubEnv('IRIS_TEST_VISIBLE', 'plain');
    const result = await createTerminalTool().run({ command: 'echo "[$IRIS_TEST_API_KEY][$IRIS_TEST_VISIBLE]"' }, makeContext(dirs));
    expect(result.content).toBe('exit code: 0\nstdout:\n[][plain]\nstderr: (empty)');
  });

  it('stops background jobs that keep the output open after the shell exits', async () => {
    const tool = createTerminalTool({ lingerMs: 200 });
    const begin = Date.now();
    const result = await tool.run({ command: 'sleep 30 & echo $! > child.pid; echo started' }, makeContext(dirs));
    expect(Date.now() - begin).toBeLessThan(5_000);
    expect(result).toEqual({
      ok: true,
      content:
        'exit code: 0\nstdout:\nstarted\nstderr: (empty)\n' +
        'note: background processes kept the output open after the shell exited and were stopped; ' +
        'redirect the output of a background job to a file (cmd > log 2>&1 &) to keep it running',
    });
    expect(await waitUntilGone(await readPid('child.pid'))).toBe(true);
  });

  it('does not call a finished command timed out while it waits for background output', async () => {
    const tool = createTerminalTool({ lingerMs: 500 });
    const result = await tool.run({ command: 'sleep 30 & echo $! > child.pid', timeout_seconds: 0.2 }, makeContext(dirs));
    expect(result.content.split('\n')[0]).toBe('exit code: 0');
    expect(result.content).toContain('note: background processes kept the output open');
    expect(await waitUntilGone(await readPid('child.pid'))).toBe(true);
  });

  it('leaves a background job with redirected output running', async () => {
    const tool = createTerminalTool({ lingerMs: 200 });
    const result = await tool.run({ command: 'sleep 30 > /dev/null 2>&1 & echo $! > child.pid' }, makeContext(dirs));
    expect(result).toEqual({ ok: true, content: 'exit code: 0\nstdout: (empty)\nstderr: (empty)' });
    expect(isAlive(await readPid('child.pid'))).toBe(true);
  });

  it('checks its arguments', async () => {
    const tool = createTerminalTool();
    const context = makeContext(dirs);
    expect(await tool.run({ command: 'true', timeout_seconds: 601 }, context)).toEqual({
      ok: false,
      content: 'invalid arguments for run_command: timeout_seconds must be at most 600',
    });
    expect(await tool.run({}, context)).toEqual({ ok: false, content: 'invalid arguments for run_command: command is required' });
    expect(await tool.run({ command: '' }, context)).toEqual({
      ok: false,
      content: 'invalid arguments for run_command: command must not be empty',
    });
    expect(context.requests).toEqual([]);
  });

  it('reports a shell that cannot start', async () => {
    const result = await createTerminalTool({ shell: '/nonexistent/sh' }).run({ command: 'true' }, makeContext(dirs));
    expect(result).toEqual({ ok: false, content: 'command not run: spawn /nonexistent/sh ENOENT' });
  });

  it('describes itself to the model', () => {
    const { definition, readOnly } = createTerminalTool({ shell: '/bin/sh' });
    expect(readOnly).toBe(false);
    expect(definition.name).toBe('run_command');
    expect(definition.parameters).toEqual({
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'The command line, run by bash (or sh) with -c.' },
        cwd: {
          type: 'string',
          description: 'Folder to run in, relative to the workspace root (default: the root). Must stay inside the workspace.',
        },
        timeout_seconds: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 600,
          description: 'Stop the command (and everything it started) after this long. Default 120, at most 600.',
        },
      },
      required: ['command'],
      additionalProperties: false,
    });
  });
});
