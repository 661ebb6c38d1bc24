// state.db holds conversations and tool output: owner-only, like the secrets. SQLite creates the
// -wal and -shm files with the database file's mode, so the file is created 0600 before SQLite
// first opens it; the companions are narrowed afterwards as well, in case an older or foreign
// process created them looser.
import { chmod, open, stat } from 'node:fs/promises';

export const PRIVATE_MODE = 0o600;
export const COMPANION_SUFFIXES = ['-wal', '-shm'] as const;

/** Creates an empty file at `path` with mode 0600 unless one is there already. */
export async function createPrivateFile(path: string): Promise<void> {
  try {
    const handle = await open(path, 'wx', PRIVATE_MODE);
    await handle.close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Narrows the database file and its -wal/-shm companions to 0600 where they are looser. */
export async function narrowToPrivate(path: string): Promise<void> {
  for (const file of [path, ...COMPANION_SUFFIXES.map((suffix) => `${path}${suffix}`)]) {
    let mode: number;
    try {
      mode = (await stat(file)).mode;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if ((mode & 0o777 & ~PRIVATE_MODE) !== 0) await chmod(file, PRIVATE_MODE);
  }
}
