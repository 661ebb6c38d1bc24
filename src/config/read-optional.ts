// Reading a file that may not be there yet (a pid file, a subscriptions file): its text, or
// undefined when it does not exist. Any other failure (EACCES, EISDIR) is thrown to the caller.
import { readFile } from 'node:fs/promises';

export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
