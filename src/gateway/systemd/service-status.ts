// What systemd says about this machine's iris-gateway.service, for `iris gateway status`. Asked
// only when a unit file exists (a user unit first, then a system one), so a machine that never
// installed the service sees no change and runs no systemctl. systemctl runs with execFile, never
// a shell, with a timeout; IRIS_SYSTEMCTL_BIN replaces it (test/fakes/fake-systemctl.mjs).
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from '../../config/home.js';
import { GATEWAY_UNIT_NAME, type UnitScope } from './gateway-unit.js';
import type { ServiceReport } from './service-view.js';
import { parseSystemctlShow, SHOWN_PROPERTIES } from './systemctl-show.js';
import { scopeFlag, unitDir } from './unit-dirs.js';

const SYSTEMCTL_TIMEOUT_MS = 5_000;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first installed unit file, user scope first; undefined when there is none. */
export async function findInstalledUnit(env: Env, homeDir: string): Promise<{ scope: UnitScope; unitPath: string } | undefined> {
  for (const scope of ['user', 'system'] as const) {
    const unitPath = join(unitDir(scope, env, homeDir), GATEWAY_UNIT_NAME);
    if (await isFile(unitPath)) return { scope, unitPath };
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.split(/\r?\n/).map((line) => line.trim()).find(Boolean) ?? '';
}

type ShowRun = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly reason: string };

function runShow(bin: string, scope: UnitScope): Promise<ShowRun> {
  const args = [...scopeFlag(scope), 'show', GATEWAY_UNIT_NAME, `--property=${SHOWN_PROPERTIES.join(',')}`];
  return new Promise((resolve) => {
    execFile(bin, args, { timeout: SYSTEMCTL_TIMEOUT_MS, maxBuffer: 64 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve({ ok: false, reason: `${bin} not found` });
      if (error.killed) return resolve({ ok: false, reason: `${bin} did not answer within ${SYSTEMCTL_TIMEOUT_MS / 1000} s` });
      // "Failed to connect to bus" (no user session, a container without systemd) and the like.
      resolve({ ok: false, reason: firstLine(stderr) || `${bin} exited with code ${String(code)}` });
    });
  });
}

/** The service's state, or undefined when no unit file is installed. */
export async function readServiceReport(env: Env, homeDir: string): Promise<ServiceReport | undefined> {
  const found = await findInstalledUnit(env, homeDir);
  if (!found) return undefined;
  const run = await runShow(env.IRIS_SYSTEMCTL_BIN?.trim() || 'systemctl', found.scope);
  if (!run.ok) return { known: false, ...found, reason: run.reason };
  const parsed = parseSystemctlShow(run.stdout);
  return parsed.ok ? { known: true, ...found, state: parsed.state } : { known: false, ...found, reason: parsed.reason };
}
