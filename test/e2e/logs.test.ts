// `iris logs`: the JSON-lines logs as readable lines, the rotated files first, filters, --json,
// -f across a rotation, and never a secret.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, runIris, waitForOutput } from '../helpers/iris.js';

let dir: string;
let home: string;
let logsDir: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  logsDir = join(home, 'logs');
  await mkdir(logsDir, { recursive: true, mode: 0o700 });
});
afterEach(() => removeDir(dir));

const iris = (args: string[]) => runIris(args, { home });
const SECRET = 'sk-live-0123456789abcdefghij';
const line = (time: string, level: string, msg: string, fields: Record<string, unknown> = {}) => `${JSON.stringify({ level, time, pid: 1, log: 'gateway', ...fields, msg })}\n`;

async function seed(): Promise<void> {
  // The oldest lines are in the rotated file; a secret written as it was (a line from before a redaction rule).
  await writeFile(join(logsDir, 'gateway.log.1'), line('2026-11-28T10:00:00.000Z', 'info', 'gateway listening', { address: '127.0.0.1:8644' }) + line('2026-11-28T10:01:00.000Z', 'warn', `upstream said no to ${SECRET}`, { route: 'ci', authorization: `Bearer ${SECRET}` }));
  await writeFile(join(logsDir, 'gateway.log'), line('2026-11-28T11:00:00.000Z', 'error', 'delivery failed', { route: 'pr', platform: 'telegram', error: 'chat not found' }));
  await writeFile(join(logsDir, 'audit.log'), `${JSON.stringify({ time: '2026-11-28T10:30:00.000Z', actor: 'dashboard:password', from: '10.0.0.2', action: 'sign_in', target: '', ok: true })}\n`);
}

describe('iris logs', () => {
  it('prints the rotated file, then the live one, as readable lines, with no secret', async () => {
    await seed();
    const result = await iris(['logs', 'gateway']);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        '2026-11-28T10:00:00.000Z INFO  gateway gateway listening  address=127.0.0.1:8644',
        '2026-11-28T10:01:00.000Z WARN  gateway upstream said no to sk-[redacted]  route=ci authorization=[redacted]',
        '2026-11-28T11:00:00.000Z ERROR gateway delivery failed  route=pr platform=telegram error="chat not found"',
        '',
      ].join('\n'),
    });
    expect(result.stdout).not.toContain('0123456789abcdefghij');
  });

  it('merges every log in time order by default, and filters', async () => {
    await seed();
    expect((await iris(['logs'])).stdout.split('\n').filter(Boolean).map((l) => l.slice(25, 38))).toEqual(['INFO  gateway', 'WARN  gateway', 'INFO  audit  ', 'ERROR gateway']);
    expect((await iris(['logs', '--level', 'warn'])).stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect((await iris(['logs', '--route', 'pr'])).stdout).toContain('delivery failed');
    expect((await iris(['logs', '--route', 'pr'])).stdout).not.toContain('upstream');
    expect((await iris(['logs', '--platform', 'telegram'])).stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect((await iris(['logs', 'audit'])).stdout).toBe('2026-11-28T10:30:00.000Z INFO  audit   sign_in  ok=true actor=dashboard:password from=10.0.0.2\n');
    expect((await iris(['logs', '-n', '1'])).stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect((await iris(['logs', '--since', '1h'])).stdout).toBe('');
  });

  it('--json: the entries with snake_case keys, redacted', async () => {
    await seed();
    const result = await iris(['logs', 'gateway', '--level', 'warn', '--json']);
    expect(JSON.parse(result.stdout)).toEqual([
      { source: 'gateway', time: '2026-11-28T10:01:00.000Z', level: 'warn', what: 'upstream said no to sk-[redacted]', fields: { route: 'ci', authorization: '[redacted]' } },
      { source: 'gateway', time: '2026-11-28T11:00:00.000Z', level: 'error', what: 'delivery failed', fields: { route: 'pr', platform: 'telegram', error: 'chat not found' } },
    ]);
  });

  it('refuses an unknown log and a bad --since; a home without logs prints nothing and creates nothing', async () => {
    expect(await iris(['logs', 'nope'])).toEqual({ code: 2, stdout: '', stderr: 'iris: error: no log named "nope" (logs: gateway, agent, audit)\n' });
    expect((await iris(['logs', '--since', 'soon'])).code).toBe(2);
    const fresh = join(dir, 'fresh');
    expect(await runIris(['logs'], { home: fresh })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await readdir(fresh).catch(() => [])).toEqual([]);
  });

  it('-f follows new lines, across a rotation', async () => {
    await seed();
    const child = spawn(process.execPath, [IRIS_BIN, 'logs', 'gateway', '-f', '-n', '0'], { env: cleanEnv({ IRIS_HOME: home }) });
    try {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await appendFile(join(logsDir, 'gateway.log'), line('2026-11-28T12:00:00.000Z', 'info', 'webhook accepted', { route: 'ci' }));
      await waitForOutput(child.stdout, 'webhook accepted', 10_000);
      await rename(join(logsDir, 'gateway.log'), join(logsDir, 'gateway.log.2'));
      await writeFile(join(logsDir, 'gateway.log'), line('2026-11-28T12:01:00.000Z', 'info', `after the rotation ${SECRET}`));
      const seen = await waitForOutput(child.stdout, 'after the rotation', 10_000);
      expect(seen).not.toContain('0123456789abcdefghij');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
