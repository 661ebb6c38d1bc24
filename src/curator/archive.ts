// Archiving a skill: its folder moves to `skills/.archive/<name>/` (a dot-folder, so it is no longer
// listed or loadable). Nothing is deleted: an archive of the same name already there keeps its
// place, and the new one takes the first free `<name>-2`, `<name>-3`…
import { lstat, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { pathForName } from '../security/names.js';

export const ARCHIVE_FOLDER = '.archive';

export type Archived = { readonly skill: string; readonly to: string };

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** A free place in the archive for `name` (`<name>-2` may pass 64 characters: the archive holds no skills). */
export async function archiveTarget(archiveDir: string, name: string): Promise<string> {
  const first = pathForName(archiveDir, 'skill', name);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? first : join(archiveDir, `${name}-${n}`);
    if (!(await exists(candidate))) return candidate;
  }
}

/**
 * Moves each named skill folder into the archive, in order; returns where each went. The names
 * come from a model's answer (checked against the installed skills), and all are checked again
 * before the first move, so a bad one moves nothing rather than half the list.
 */
export async function archiveSkills(skillsDir: string, names: readonly string[]): Promise<Archived[]> {
  const sources = names.map((skill) => pathForName(skillsDir, 'skill', skill));
  const archiveDir = join(skillsDir, ARCHIVE_FOLDER);
  await mkdir(archiveDir, { recursive: true, mode: 0o700 });
  const moved: Archived[] = [];
  for (const [index, skill] of names.entries()) {
    const to = await archiveTarget(archiveDir, skill);
    await rename(sources[index]!, to);
    moved.push({ skill, to });
  }
  return moved;
}
