// Replace a file so that readers see either the old or the new bytes, never a torn mix, and a
// crash right after the rename still finds the new bytes on disk.
import { chmod, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A symlinked config (dotfiles repos do this) is updated at its target, and stays a symlink. */
async function resolveTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw err;
  }
}

/** Distinguishes this process's temporary files from each other. */
let tmpCount = 0;

export async function writeFileAtomic(linkOrPath: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const path = await resolveTarget(linkOrPath);
  const dir = dirname(path);
  // Unpredictability is not needed here ('wx' refuses an existing file), only distinct names, so
  // no node:crypto: loading it costs every config command milliseconds of start-up.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${(++tmpCount).toString(36)}${Math.random().toString(36).slice(2, 10)}.tmp`);
  // Outside the clean-up below: a name that is taken is someone else's file, not ours to remove.
  const file = await open(tmp, 'wx', mode);
  try {
    try {
      await file.writeFile(data, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await chmod(tmp, mode); // the umask may have narrowed or the file system widened it
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic there.
  } finally {
    await dirHandle.close();
  }
}
