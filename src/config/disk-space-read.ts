// The disk-space numbers of the file system under a folder (the Iris home), read once.
import { statfs } from 'node:fs/promises';
import { diskSpaceOf, type DiskSpace } from '../domain/disk-space.js';

/** The space under `dir`, or undefined when the file system cannot say (the folder is gone). */
export async function readDiskSpace(dir: string): Promise<DiskSpace | undefined> {
  try {
    return diskSpaceOf(await statfs(dir));
  } catch {
    return undefined;
  }
}
