// Which profile a command uses, and where its home is. Pure: the caller reads the flag, the
// environment and the stored default (`$IRIS_HOME/active_profile`) and passes them in.
import { join } from 'node:path';
import { pathForName } from '../security/names.js';

/** The home itself; it always exists and cannot be deleted. */
export const DEFAULT_PROFILE = 'default';

export type ProfileSource = 'flag' | 'env' | 'stored' | 'default';

export type ProfileChoice = { readonly name: string; readonly source: ProfileSource };

/** `-p/--profile` > `IRIS_PROFILE` > the default set by `iris profile use` > `default`. Blank counts as unset. */
export function chooseProfile(inputs: { flag?: string | undefined; env?: string | undefined; stored?: string | undefined }): ProfileChoice {
  const flag = inputs.flag?.trim();
  if (flag) return { name: flag, source: 'flag' };
  const env = inputs.env?.trim();
  if (env) return { name: env, source: 'env' };
  const stored = inputs.stored?.trim();
  if (stored) return { name: stored, source: 'stored' };
  return { name: DEFAULT_PROFILE, source: 'default' };
}

/** The folder that holds the named profiles (and `.trash`, where deleted ones go). */
export function profilesDir(baseDir: string): string {
  return join(baseDir, 'profiles');
}

/**
 * A profile's home: the base home for `default`, else `$IRIS_HOME/profiles/<name>`. A name that
 * breaks the name rule throws (src/security/names.ts): callers check it where it arrives.
 */
export function profileHomeDir(baseDir: string, name: string): string {
  return name === DEFAULT_PROFILE ? baseDir : pathForName(profilesDir(baseDir), 'profile', name);
}

/** Where `iris profile use` keeps the default for later commands. */
export function activeProfilePath(baseDir: string): string {
  return join(baseDir, 'active_profile');
}
