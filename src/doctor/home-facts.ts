// Reading the home's state for the doctor: stat and access only. Unlike prepareHome, nothing is
// created and no mode is narrowed: the doctor reports, the user decides.
import { constants } from 'node:fs';
import { access, lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../config/home.js';
import { errnoMessage } from '../config/result.js';
import { COMPANION_SUFFIXES } from '../store/private-file.js';
import { AUTH_FILE } from '../auth/store.js';
import { SUBSCRIPTIONS_FILE } from '../webhook/subscriptions.js';
import type { HomeFacts, PathFacts } from './checks/home.js';

async function readHome(dir: string): Promise<HomeFacts> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return { kind: 'not_directory', dir };
    await access(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    return { kind: 'directory', dir, mode: info.mode };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing', dir };
    return { kind: 'unusable', dir, error: errnoMessage(err) };
  }
}

async function readPath(label: string, path: string, want: PathFacts['want']): Promise<PathFacts> {
  try {
    // lstat: a symlink in place of config.yaml is reported as what it is, not followed.
    const info = await lstat(path);
    const type = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
    return { label, path, want, found: { type, mode: info.mode } };
  } catch {
    return { label, path, want }; // not there, or not ours to see: the home check says which
  }
}

/** The files that hold secrets or conversations (0600), and the logs folder (0700). */
export function privatePaths(paths: HomePaths): ReadonlyArray<readonly [label: string, path: string, want: PathFacts['want']]> {
  return [
    ['config.yaml', paths.configPath, 'file'],
    ['.env', paths.envPath, 'file'],
    ['state.db', paths.statePath, 'file'],
    ...COMPANION_SUFFIXES.map((suffix) => [`state.db${suffix}`, `${paths.statePath}${suffix}`, 'file'] as const),
    [SUBSCRIPTIONS_FILE, join(paths.dir, SUBSCRIPTIONS_FILE), 'file'],
    [AUTH_FILE, join(paths.dir, AUTH_FILE), 'file'],
    ['logs', paths.logsDir, 'directory'],
  ];
}

export async function readHomeFacts(paths: HomePaths): Promise<{ home: HomeFacts; paths: PathFacts[] }> {
  const home = await readHome(paths.dir);
  const entries = home.kind === 'directory' ? await Promise.all(privatePaths(paths).map(([l, p, w]) => readPath(l, p, w))) : [];
  return { home, paths: entries };
}
