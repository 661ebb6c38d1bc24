// readServiceReport against the fake systemctl (test/fakes/fake-systemctl.mjs): no unit, no
// systemctl run; a user unit is asked with --user; every way systemctl can fail is a reason.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readServiceReport } from './service-status.js';

const FAKE = fileURLToPath(new URL('../../../test/fakes/fake-systemctl.mjs', import.meta.url));
let dir: string;
let env: Record<string, string>;
let record: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-systemctl-'));
  record = join(dir, 'calls.jsonl');
  env = { XDG_CONFIG_HOME: join(dir, 'config'), IRIS_SYSTEMD_DIR: join(dir, 'system'), IRIS_SYSTEMCTL_BIN: FAKE, HOME: dir };
  // systemctl runs with this process's environment, which is where the fake reads its script.
  vi.stubEnv('FAKE_SYSTEMCTL_RECORD', record);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

async function installUnit(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'iris-gateway.service');
  await writeFile(path, '[Unit]\n');
  return path;
}

describe('readServiceReport', () => {
  it('is undefined, and asks systemctl nothing, when no unit is installed', async () => {
    expect(await readServiceReport(env, join(dir, 'home'))).toBeUndefined();
    expect(await readFile(record, 'utf8').catch(() => 'none')).toBe('none');
  });

  it('reads a user unit\'s state with systemctl --user show', async () => {
    const unitPath = await installUnit(join(dir, 'config', 'systemd', 'user'));
    vi.stubEnv('FAKE_SYSTEMCTL_STATE', 'failed/failed/enabled/0');
    const report = await readServiceReport(env, join(dir, 'home'));
    expect(report).toMatchObject({ known: true, scope: 'user', unitPath, state: { activeState: 'failed', subState: 'failed' } });
    expect((await readFile(record, 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as string[])[0])).toEqual(['--user']);
  });

  it('gives a reason when systemctl fails, or is not there', async () => {
    const unitPath = await installUnit(join(dir, 'system'));
    vi.stubEnv('FAKE_SYSTEMCTL_FAIL', 'Failed to connect to bus: No such file or directory');
    expect(await readServiceReport(env, join(dir, 'home'))).toEqual({
      known: false,
      scope: 'system',
      unitPath,
      reason: 'Failed to connect to bus: No such file or directory',
    });
    expect(await readServiceReport({ ...env, IRIS_SYSTEMCTL_BIN: join(dir, 'no-systemctl') }, join(dir, 'home'))).toMatchObject({
      known: false,
      reason: `${join(dir, 'no-systemctl')} not found`,
    });
  });
});
