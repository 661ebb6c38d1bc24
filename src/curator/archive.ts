// Archiving a skill: its folder moves to `skills/.archive/<name>/` (a dot-folder, so it is no longer
// listed or loadable). Nothing is deleted: an archive of the same name already there keeps its
// place, and the new one takes the first free `<name>-2`, `<name>-3`…
import { lstat, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';

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

/** A free place in the archive for `name`. */
export async function archiveTarget(archiveDir: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = join(archiveDir, n === 1 ? name : `${name}-${n}`);
    if (!(await exists(candidate))) return candidate;
  }
}

/** Moves each named skill folder into the archive, in order; returns where each went. */
export async function archiveSkills(skillsDir: string, names: readonly string[]): Promise<Archived[]> {
  const archiveDir = join(skillsDir, ARCHIVE_FOLDER);
  await mkdir(archiveDir, { recursive: true, mode: 0o700 });
  const moved: Archived[] = [];
  for (const skill of names) {
    const to = await archiveTarget(archiveDir, skill);
    await rename(join(skillsDir, skill), to);
    moved.push({ skill, to });
  }
  return moved;
}
