// $IRIS_HOME/gateway.pid (the listening gateway) and gateway-worker.pid (the working one; role.ts
// says which role holds which): one process per file and home. Created exclusively, so two starts
// cannot both win; a file left by a process that is gone (kill -9, a crash) is stale and taken over.
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../config/home.js';
import { readTextIfPresent } from '../config/read-optional.js';
import { processIsAlive } from '../domain/process-alive.js';
import { gatewayStatus, type GatewayStatus } from '../routing/status-report.js';

export const GATEWAY_PID_FILE = 'gateway.pid';

export function gatewayPidPath(paths: Pick<HomePaths, 'dir'>, file: string = GATEWAY_PID_FILE): string {
  return join(paths.dir, file);
}

export { processIsAlive };

export async function readGatewayStatus(paths: Pick<HomePaths, 'dir'>, file: string = GATEWAY_PID_FILE): Promise<GatewayStatus> {
  const path = gatewayPidPath(paths, file);
  return gatewayStatus(path, await readTextIfPresent(path), processIsAlive);
}

export type PidClaim = { readonly ok: true } | { readonly ok: false; readonly pid: number };

/** Writes our pid, unless a live gateway holds the file. */
export async function claimPidFile(paths: Pick<HomePaths, 'dir'>, pid = process.pid, file: string = GATEWAY_PID_FILE): Promise<PidClaim> {
  const path = gatewayPidPath(paths, file);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(path, 'wx', 0o600);
      try {
        await file.writeFile(`${pid}\n`);
      } finally {
        await file.close();
      }
      return { ok: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const status = gatewayStatus(path, await readTextIfPresent(path), processIsAlive);
    if (status.state === 'running' && status.pid !== pid) return { ok: false, pid: status.pid };
    await rm(path, { force: true }); // stale, unreadable, or ours from an earlier life
  }
  throw new Error(`cannot claim ${path}: it keeps reappearing`);
}

/** Removes the file if it is still ours. */
export async function releasePidFile(paths: Pick<HomePaths, 'dir'>, pid = process.pid, file: string = GATEWAY_PID_FILE): Promise<void> {
  const path = gatewayPidPath(paths, file);
  if ((await readTextIfPresent(path).catch(() => undefined))?.trim() === String(pid)) await rm(path, { force: true });
}

export type PidFilesClaim = { readonly ok: true } | { readonly ok: false; readonly file: string; readonly pid: number };

/** Claims every file, or none: a file held by a live process gives back the ones claimed before it. */
export async function claimPidFiles(paths: Pick<HomePaths, 'dir'>, files: readonly string[], pid = process.pid): Promise<PidFilesClaim> {
  const held: string[] = [];
  for (const file of files) {
    let claim: PidClaim;
    try {
      claim = await claimPidFile(paths, pid, file);
    } catch (err) {
      await releasePidFiles(paths, held, pid);
      throw err;
    }
    if (!claim.ok) {
      await releasePidFiles(paths, held, pid);
      return { ok: false, file, pid: claim.pid };
    }
    held.push(file);
  }
  return { ok: true };
}

export async function releasePidFiles(paths: Pick<HomePaths, 'dir'>, files: readonly string[], pid = process.pid): Promise<void> {
  for (const file of files) await releasePidFile(paths, pid, file);
}
