// The pid files of a home's gateway roles: claimed all or none.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { claimPidFiles, readGatewayStatus, releasePidFiles } from './pid-file.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('iris-pid-');
});
afterEach(() => removeDir(dir));

/** A live process that is not this one (killed after the test). */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return { pid: child.pid!, kill: () => child.kill('SIGKILL') };
}

describe('claimPidFiles', () => {
  it('claims every file with our pid, and releases them', async () => {
    expect(await claimPidFiles({ dir }, ['gateway.pid', 'gateway-worker.pid'], 4242)).toEqual({ ok: true });
    expect(await readFile(join(dir, 'gateway.pid'), 'utf8')).toBe('4242\n');
    expect(await readFile(join(dir, 'gateway-worker.pid'), 'utf8')).toBe('4242\n');
    await releasePidFiles({ dir }, ['gateway.pid', 'gateway-worker.pid'], 4242);
    expect(existsSync(join(dir, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(dir, 'gateway-worker.pid'))).toBe(false);
  });

  it('a file a live process holds: names it, and gives back the files claimed before it', async () => {
    const other = otherProcess();
    try {
      await writeFile(join(dir, 'gateway-worker.pid'), `${other.pid}\n`);
      expect(await claimPidFiles({ dir }, ['gateway.pid', 'gateway-worker.pid'])).toEqual({ ok: false, file: 'gateway-worker.pid', pid: other.pid });
      expect(existsSync(join(dir, 'gateway.pid'))).toBe(false);
      expect(await readFile(join(dir, 'gateway-worker.pid'), 'utf8')).toBe(`${other.pid}\n`);
      expect(await readGatewayStatus({ dir }, 'gateway-worker.pid')).toEqual({ state: 'running', pid: other.pid, pid_file: join(dir, 'gateway-worker.pid') });
      // The other slot is free: a listener may start beside that worker.
      expect(await claimPidFiles({ dir }, ['gateway.pid'])).toEqual({ ok: true });
    } finally {
      other.kill();
    }
  });
});
