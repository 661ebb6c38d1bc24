// The profile this process runs under, decided once before a command runs: the flag, the
// environment and the stored default are read here, and IRIS_HOME is pointed at the profile's
// home, so every later resolveHomePaths (openHome, doctor, a spawned gateway) sees that home.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveHomePaths, type Env } from '../config/home.js';
import { checkName } from '../security/names.js';
import { activeProfilePath, chooseProfile, DEFAULT_PROFILE, profileHomeDir, type ProfileSource } from './names.js';

export type CurrentProfile = {
  readonly name: string;
  readonly source: ProfileSource;
  /** `$IRIS_HOME` as given: the default profile's home, and where `profiles/` lives. */
  readonly baseDir: string;
  readonly homeDir: string;
};

export type ProfileSelection = { ok: true; profile: CurrentProfile } | { ok: false; message: string; source: ProfileSource; baseDir: string };

/** The default set by `iris profile use`, or undefined when none is set (or it cannot be read). */
export function readStoredProfile(baseDir: string): string | undefined {
  try {
    return readFileSync(activeProfilePath(baseDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Which profile, and whether it exists; reads the stored default and the profile's folder. */
export function selectProfile(flag: string | undefined, env: Env): ProfileSelection {
  const baseDir = resolveHomePaths(env).dir;
  const choice = chooseProfile({ flag, env: env.IRIS_PROFILE, stored: readStoredProfile(baseDir) });
  const checked = checkName('profile', choice.name);
  const from = { flag: '--profile', env: 'IRIS_PROFILE', stored: `${activeProfilePath(baseDir)} (set by iris profile use)`, default: '' }[choice.source];
  if (!checked.ok) return { ok: false, message: `${checked.error} (from ${from})`, source: choice.source, baseDir };
  const homeDir = profileHomeDir(baseDir, choice.name);
  if (choice.name !== DEFAULT_PROFILE && !isDirectory(homeDir)) {
    const fix = choice.source === 'stored' ? `create it with: iris profile create ${choice.name}, or go back with: iris profile use default` : `create it with: iris profile create ${choice.name}`;
    return { ok: false, message: `no profile "${choice.name}" (from ${from}); ${fix}`, source: choice.source, baseDir };
  }
  return { ok: true, profile: { name: choice.name, source: choice.source, baseDir, homeDir: resolve(homeDir) } };
}

let current: CurrentProfile | undefined;

/**
 * Makes `profile` this process's profile: IRIS_HOME becomes its home and IRIS_PROFILE is dropped,
 * so a child process (a gateway started from here) uses the same home without resolving again.
 */
export function applyProfile(profile: CurrentProfile, env: NodeJS.ProcessEnv): void {
  current = profile;
  env.IRIS_HOME = profile.homeDir;
  delete env.IRIS_PROFILE;
}

/** The default profile of a base home: what `iris profile …` falls back to when the stored default is gone. */
export function defaultProfile(baseDir: string): CurrentProfile {
  return { name: DEFAULT_PROFILE, source: 'default', baseDir, homeDir: baseDir };
}

/** The profile chosen for this process; before any was applied, the one the environment names. */
export function currentProfile(env: Env = process.env): CurrentProfile {
  if (current) return current;
  const selected = selectProfile(undefined, env);
  if (selected.ok) return selected.profile;
  const baseDir = resolveHomePaths(env).dir;
  return { name: DEFAULT_PROFILE, source: 'default', baseDir, homeDir: baseDir };
}
