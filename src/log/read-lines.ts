// Reading the logs under $IRIS_HOME/logs as entries, for `iris logs` and the dashboard's Logs page:
// which files make up one log (gateway.log.5 … gateway.log.1, then gateway.log), every entry of
// them in time order (the CLI), and the newest entries that match a filter (the page). The newest
// are read backwards from the end of the live file in chunks, then the rotated ones, and reading
// stops once enough lines matched or a byte budget is spent: a 1 GB log is never read whole to
// show its last 200 lines. Reading only: a home without logs gives nothing and creates nothing.
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inTimeOrder, matchesFilter, parseLogLine, type LogEntry, type LogFilter, type LogSource } from './log-lines.js';

/** The files of one log, oldest first: the rotated ones by number, highest first, then the live one. */
export async function logFiles(dir: string, source: LogSource): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const numbered = new RegExp(`^${source}\\.log\\.(\\d+)$`);
  const rotated = names
    .map((name) => ({ name, n: numbered.exec(name)?.[1] }))
    .filter((file): file is { name: string; n: string } => file.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n))
    .map((file) => join(dir, file.name));
  return [...rotated, ...(names.includes(`${source}.log`) ? [join(dir, `${source}.log`)] : [])];
}

export function entriesOf(source: LogSource, text: string): LogEntry[] {
  return text.split('\n').flatMap((line) => parseLogLine(source, line) ?? []);
}

async function readWhole(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}

/** Every entry of the logs, oldest first (lines of one file keep their order). */
export async function readAllEntries(dir: string, sources: readonly LogSource[]): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for (const source of sources) {
    for (const file of await logFiles(dir, source)) entries.push(...entriesOf(source, await readWhole(file)));
  }
  return inTimeOrder(entries);
}

/** Bytes read per step backwards. */
export const CHUNK_BYTES = 64 * 1024;
/** Bytes one newest-first read may look at before it stops and says so. */
export const SCAN_BUDGET_BYTES = 32 * 1024 * 1024;
/** A longer "line" (a file with no newlines, a binary blob) is skipped rather than held in memory. */
export const MAX_LINE_BYTES = 1024 * 1024;

export type NewestEntries = {
  /** Newest first. */
  readonly entries: readonly LogEntry[];
  /** True when the byte budget ran out before the files did: older matches may exist. */
  readonly scanLimited: boolean;
};

export type NewestOptions = { readonly chunkBytes?: number; readonly budgetBytes?: number; readonly maxLineBytes?: number };

/** Up to `limit` entries of one log that match `filter`, newest first, reading backwards. */
export async function readNewestEntries(dir: string, source: LogSource, filter: LogFilter, limit: number, options: NewestOptions = {}): Promise<NewestEntries> {
  const budget = { left: options.budgetBytes ?? SCAN_BUDGET_BYTES };
  const found: LogEntry[] = [];
  const files = (await logFiles(dir, source)).reverse();
  for (const file of files) {
    if (found.length >= limit) break;
    const done = await scanBackwards(file, (line) => {
      const entry = parseLogLine(source, line);
      if (entry && matchesFilter(entry, filter)) found.push(entry);
      return found.length >= limit;
    }, budget, options);
    if (done === 'budget') return { entries: found, scanLimited: true };
  }
  return { entries: found, scanLimited: false };
}

/**
 * Hands the lines of a file to `take`, last line first, until `take` says it has enough, the file
 * is read, or the budget is spent. Lines are cut at newline bytes before they are decoded, so a
 * chunk boundary inside a multi-byte character never garbles one.
 */
async function scanBackwards(
  file: string,
  take: (line: string) => boolean,
  budget: { left: number },
  options: NewestOptions,
): Promise<'enough' | 'file' | 'budget'> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return 'file'; // rotated away between the listing and now: nothing to read
  }
  try {
    let position = (await handle.stat()).size;
    // The bytes after the last newline seen so far: the end of a line whose start is further back.
    let tail = Buffer.alloc(0);
    let skippingLongLine = false;
    while (position > 0) {
      if (budget.left <= 0) return 'budget';
      const size = Math.min(chunkBytes, position, budget.left);
      position -= size;
      budget.left -= size;
      const chunk = Buffer.alloc(size);
      await handle.read(chunk, 0, size, position);
      let end = size;
      for (let at = chunk.lastIndexOf(0x0a, end - 1); at >= 0; at = at === 0 ? -1 : chunk.lastIndexOf(0x0a, at - 1)) {
        const line = Buffer.concat([chunk.subarray(at + 1, end), tail]);
        tail = Buffer.alloc(0);
        end = at;
        if (skippingLongLine) skippingLongLine = false;
        else if (take(line.toString('utf8'))) return 'enough';
      }
      if (!skippingLongLine) tail = Buffer.concat([chunk.subarray(0, end), tail]);
      if (tail.length > maxLine) {
        tail = Buffer.alloc(0);
        skippingLongLine = true;
      }
    }
    if (!skippingLongLine && tail.length > 0 && take(tail.toString('utf8'))) return 'enough';
    return 'file';
  } finally {
    await handle.close();
  }
}
