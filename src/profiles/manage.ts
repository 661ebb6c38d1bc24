// Profiles on disk: listing, creating (optionally a copy of another's config.yaml and .env),
// deleting (moved to profiles/.trash, never removed outright) and the stored default.
import { copyFile, mkdir, readdir, rename, rm, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveHomePaths } from '../config/home.js';
import { loadConfig } from '../config/store.js';
import { errnoMessage, fail, type Result } from '../config/result.js';
import { writeFileAtomic } from '../config/atomic-write.js';
import { checkName } from '../security/names.js';
import { activeProfilePath, DEFAULT_PROFILE, profileHomeDir, profilesDir } from './names.js';
import { isDirectory, readStoredProfile } from './current.js';

export const TRASH_DIR = '.trash';

/** `default` first, then every profile folder whose name keeps the name rule (`.trash` does not). */
export async function listProfileNames(baseDir: string): Promise<string[]> {
  const names = await readdir(profilesDir(baseDir)).catch(() => [] as string[]);
  const valid = names.filter((n) => n !== DEFAULT_PROFILE && checkName('profile', n).ok && isDirectory(profileHomeDir(baseDir, n)));
  return [DEFAULT_PROFILE, ...valid.sort()];
}

/**
 * Folders under profiles/ that are not profiles because their name breaks the name rule (one an
 * earlier version allowed, such as `_scratch`): named with the rule, so they are not just missing.
 */
export async function strayProfileFolders(baseDir: string): Promise<Array<{ folder: string; error: string }>> {
  const names = await readdir(profilesDir(baseDir)).catch(() => [] as string[]);
  return names.sort().flatMap((folder) => {
    const checked = checkName('profile', folder);
    if (checked.ok || folder === TRASH_DIR || !isDirectory(join(profilesDir(baseDir), folder))) return [];
    return [{ folder, error: checked.error }];
  });
}

/** Whether the profile's folder is there; a name that breaks the name rule names no profile. */
export function profileExists(baseDir: string, name: string): boolean {
  return name === DEFAULT_PROFILE || (checkName('profile', name).ok && isDirectory(profileHomeDir(baseDir, name)));
}

/** The stored description of a profile ('' when none, or when its config.yaml cannot be read). */
export async function storedDescription(baseDir: string, name: string): Promise<string> {
  const loaded = await loadConfig(resolveHomePaths({ IRIS_HOME: profileHomeDir(baseDir, name) }));
  return loaded.ok ? (loaded.config.description ?? '') : '';
}

/** The stored default (`iris profile use`), `default` when none is stored. */
export function storedDefault(baseDir: string): string {
  return readStoredProfile(baseDir) ?? DEFAULT_PROFILE;
}

export type Created = { readonly name: string; readonly home: string; readonly cloned: readonly string[] };

/** A new, empty home (0700); with `cloneFrom`, that profile's config.yaml and .env are copied (not state or logs). */
export async function createProfile(baseDir: string, name: string, cloneFrom?: string): Promise<Result<Created>> {
  const checked = checkName('profile', name);
  if (!checked.ok) return fail('invalid_value', checked.error);
  if (profileExists(baseDir, name)) return fail('invalid_value', `profile "${name}" already exists`);
  // The profile to copy from is a name too: `--clone ../x` must not copy another folder's .env.
  const cloneChecked = cloneFrom === undefined ? undefined : checkName('profile', cloneFrom);
  if (cloneChecked && !cloneChecked.ok) return fail('invalid_value', cloneChecked.error);
  if (cloneFrom !== undefined && !profileExists(baseDir, cloneFrom)) {
    return fail('invalid_value', `no profile "${cloneFrom}" to clone; see iris profile list`);
  }
  const home = profileHomeDir(baseDir, name);
  try {
    await mkdir(profilesDir(baseDir), { recursive: true, mode: 0o700 });
    await mkdir(home, { mode: 0o700 });
    await chmod(home, 0o700);
    const cloned: string[] = [];
    if (cloneFrom !== undefined) {
      const from = resolveHomePaths({ IRIS_HOME: profileHomeDir(baseDir, cloneFrom) });
      const to = resolveHomePaths({ IRIS_HOME: home });
      for (const [src, dst, file] of [[from.configPath, to.configPath, 'config.yaml'], [from.envPath, to.envPath, '.env']] as const) {
        try {
          await copyFile(src, dst);
          await chmod(dst, 0o600);
          cloned.push(file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
    return { ok: true, name, home, cloned };
  } catch (err) {
    return fail('io_error', `cannot create profile "${name}" at ${home}: ${errnoMessage(err)}`);
  }
}

export type Deleted = { readonly name: string; readonly movedTo: string };

/** Moves the profile's folder to `profiles/.trash/<name>-<time>`; the default and the active profile are refused. */
export async function deleteProfile(baseDir: string, name: string, active: readonly string[], now: Date = new Date()): Promise<Result<Deleted>> {
  if (name === DEFAULT_PROFILE) return fail('invalid_value', 'the default profile is the home itself and cannot be deleted');
  const checked = checkName('profile', name);
  if (!checked.ok) return fail('invalid_value', checked.error);
  if (!profileExists(baseDir, name)) return fail('invalid_value', `no profile "${name}"; see iris profile list`);
  if (active.includes(name)) return fail('invalid_value', `profile "${name}" is the active one; switch first (iris profile use default)`);
  const trash = join(profilesDir(baseDir), TRASH_DIR);
  const movedTo = join(trash, `${name}-${now.toISOString().replace(/[:.]/g, '-')}`);
  try {
    await mkdir(trash, { recursive: true, mode: 0o700 });
    await rename(profileHomeDir(baseDir, name), movedTo);
    return { ok: true, name, movedTo };
  } catch (err) {
    return fail('io_error', `cannot delete profile "${name}": ${errnoMessage(err)}`);
  }
}

/** Stores `name` as the default for later commands; `default` clears the stored one. */
export async function useProfile(baseDir: string, name: string): Promise<Result<{ name: string }>> {
  const checked = checkName('profile', name);
  if (!checked.ok) return fail('invalid_value', checked.error);
  if (!profileExists(baseDir, name)) return fail('invalid_value', `no profile "${name}"; create it with: iris profile create ${name}`);
  try {
    if (name === DEFAULT_PROFILE) await rm(activeProfilePath(baseDir), { force: true });
    else {
      await mkdir(baseDir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(activeProfilePath(baseDir), `${name}\n`, 0o600);
    }
    return { ok: true, name };
  } catch (err) {
    return fail('io_error', `cannot store the default profile: ${errnoMessage(err)}`);
  }
}

