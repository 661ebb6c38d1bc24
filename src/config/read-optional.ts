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

/** `text` as JSON of `schema`'s shape, or undefined (absent, torn, foreign or not JSON). */
export function parseJsonAs<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
