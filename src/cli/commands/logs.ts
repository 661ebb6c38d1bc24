// `iris logs [gateway|agent|audit] [-f] [--level warn] [--route r] [--platform p] [--since 1h]
// [-n 50] [--json]`: the JSON-lines logs under $IRIS_HOME/logs as readable lines, the rotated
// files (gateway.log.5 … gateway.log.1) before the live one; -f then follows the live files,
// across a rotation. It reads only: a home without logs prints nothing and creates nothing.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHomePaths } from '../../config/home.js';
import { parseSince } from '../../store/since.js';
import { printData, printJson, writeStdout } from '../console.js';
import { CliFailure } from '../exit-codes.js';
import { formatLogEntry, LOG_LEVELS, LOG_SOURCES, logEntryJson, matchesFilter, type LogEntry, type LogFilter, type LogLevel, type LogSource } from '../../log/log-lines.js';
import { entriesOf, readAllEntries } from '../../log/read-lines.js';

export type LogsOptions = { follow?: boolean; level?: string; route?: string; platform?: string; since?: string; lines?: string; json?: boolean };

/** How often -f looks for new lines. */
const FOLLOW_POLL_MS = 250;

function checkOptions(which: string | undefined, options: LogsOptions): { sources: readonly LogSource[]; filter: LogFilter; lines: number | undefined } {
  if (which !== undefined && !(LOG_SOURCES as readonly string[]).includes(which)) throw new CliFailure('usage', `no log named "${which}" (logs: ${LOG_SOURCES.join(', ')})`);
  if (options.level !== undefined && !(LOG_LEVELS as readonly string[]).includes(options.level)) {
    throw new CliFailure('usage', `--level must be one of ${LOG_LEVELS.join(', ')} (got "${options.level}")`);
  }
  let since: number | undefined;
  if (options.since !== undefined) {
    const parsed = parseSince(options.since, Date.now());
    if (!parsed.ok) throw new CliFailure('usage', parsed.message);
    since = parsed.since;
  }
  const lines = options.lines === undefined ? (since === undefined ? 50 : undefined) : Number(options.lines);
  if (lines !== undefined && (!Number.isSafeInteger(lines) || lines < 0)) throw new CliFailure('usage', `--lines must be a whole number (got "${options.lines}")`);
  const filter: LogFilter = {
    ...(options.level ? { minLevel: options.level as LogLevel } : {}),
    ...(options.route !== undefined ? { route: options.route } : {}),
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
    ...(since !== undefined ? { since } : {}),
  };
  return { sources: which === undefined ? LOG_SOURCES : [which as LogSource], filter, lines };
}

export async function logs(which: string | undefined, options: LogsOptions): Promise<void> {
  const { sources, filter, lines } = checkOptions(which, options);
  const dir = resolveHomePaths(process.env).logsDir;
  const matching = (await readAllEntries(dir, sources)).filter((entry) => matchesFilter(entry, filter));
  const shown = lines === undefined ? matching : matching.slice(Math.max(0, matching.length - lines));
  const print = (entry: LogEntry) => (options.json && options.follow ? writeStdout(`${JSON.stringify(logEntryJson(entry))}\n`) : printData(formatLogEntry(entry)));
  if (options.json && !options.follow) return printJson(shown.map(logEntryJson));
  for (const entry of shown) print(entry);
  if (options.follow) await follow(dir, sources, filter, print);
}

type Followed = { readonly source: LogSource; readonly file: string; offset: number; inode: number; partial: string };

/** Follows the live files until the process is stopped: new lines as they come, a rotated file read anew. */
async function follow(dir: string, sources: readonly LogSource[], filter: LogFilter, print: (entry: LogEntry) => void): Promise<never> {
  const followed: Followed[] = sources.map((source) => {
    const file = join(dir, `${source}.log`);
    const info = statOf(file);
    return { source, file, offset: info?.size ?? 0, inode: info?.ino ?? 0, partial: '' };
  });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    for (const log of followed) {
      for (const entry of readNew(log)) if (matchesFilter(entry, filter)) print(entry);
    }
  }
}

function statOf(file: string): { size: number; ino: number } | undefined {
  try {
    const info = statSync(file);
    return { size: info.size, ino: info.ino };
  } catch {
    return undefined;
  }
}

/** The complete lines added to a followed file since the last look; a new file (rotated, or truncated) from its start. */
function readNew(log: Followed): LogEntry[] {
  const info = statOf(log.file);
  if (!info) return [];
  if (info.ino !== log.inode || info.size < log.offset) {
    log.inode = info.ino;
    log.offset = 0;
    log.partial = '';
  }
  if (info.size === log.offset) return [];
  const buffer = Buffer.alloc(info.size - log.offset);
  const fd = openSync(log.file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, log.offset);
  } finally {
    closeSync(fd);
  }
  log.offset = info.size;
  const text = log.partial + buffer.toString('utf8');
  const end = text.lastIndexOf('\n');
  log.partial = text.slice(end + 1);
  return entriesOf(log.source, text.slice(0, end + 1));
}
