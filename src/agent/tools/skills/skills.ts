// Skills on disk: each folder under `$IRIS_HOME/skills/` with a SKILL.md. The list says which
// folders are broken and why, so a typo in front matter is visible instead of a skill silently
// missing.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomePaths } from '../../../config/home.js';
import { errnoMessage } from '../../../config/result.js';
import { checkName, pathForName } from '../../../security/names.js';
import { formatBytes, readTextFile } from '../files/text-file.js';
import { parseSkillFile, type Skill } from './skill-file.js';

export const SKILL_FILE = 'SKILL.md';
export const SKILL_FILE_MAX_BYTES = 256 * 1024;

export type SkillEntry =
  | { readonly ok: true; readonly folder: string; readonly skill: Skill }
  | { readonly ok: false; readonly folder: string; readonly missing: boolean; readonly error: string };

export function skillsDir(home: HomePaths): string {
  return join(home.dir, 'skills');
}

/** Every skill folder, sorted by name; `undefined` when there is no skills folder at all. */
export async function listSkills(dir: string): Promise<readonly SkillEntry[] | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const entries: SkillEntry[] = [];
  // Dot-folders are not skills (a skills folder kept in git has a .git).
  for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    entries.push(await readSkill(dir, name));
  }
  return entries;
}

/** One skill folder's entry; a name that breaks the name rule is refused before any path is built. */
export async function readSkill(dir: string, folder: string): Promise<SkillEntry> {
  const checked = checkName('skill', folder);
  if (!checked.ok) return { ok: false, folder, missing: false, error: checked.error };
  const path = join(pathForName(dir, 'skill', folder), SKILL_FILE);
  let file;
  try {
    // Skills are the user's own files, often symlinked in from a dotfiles repository.
    file = await readTextFile(path, SKILL_FILE_MAX_BYTES, { noFollow: false });
  } catch (err) {
    return { ok: false, folder, missing: false, error: `${SKILL_FILE} cannot be read: ${errnoMessage(err)}` };
  }
  if (!file.ok) {
    const error =
      file.reason === 'not_found'
        ? `${SKILL_FILE} is missing`
        : file.reason === 'too_large'
          ? `${SKILL_FILE} is ${formatBytes(file.bytes)}, over ${formatBytes(SKILL_FILE_MAX_BYTES)}`
          : `${SKILL_FILE} is not a text file`;
    return { ok: false, folder, missing: file.reason === 'not_found', error };
  }
  const parsed = parseSkillFile(folder, file.text);
  return parsed.ok ? { ok: true, folder, skill: parsed.skill } : { ok: false, folder, missing: false, error: parsed.error };
}
