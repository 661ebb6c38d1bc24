// The logs as entries, the pure part shared by `iris logs` and the dashboard's Logs page: a JSON
// line of logs/gateway.log, agent.log (pino) or audit.log (src/security/audit-log.ts) read as one
// entry, the filters, and the readable line. Every value
// passes through the redactor again on its way out: a line written before a rule existed, or by
// hand, still never shows a secret.
import { redactValue } from './redact.js';

export const LOG_SOURCES = ['gateway', 'agent', 'audit'] as const;
export type LogSource = (typeof LOG_SOURCES)[number];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogEntry = {
  readonly source: LogSource;
  /** ISO 8601, UTC; '' when the line had none. */
  readonly time: string;
  readonly level: LogLevel;
  /** The message (pino's `msg`), or the audit action and its target. */
  readonly what: string;
  readonly fields: Readonly<Record<string, unknown>>;
};

export type LogFilter = {
  readonly minLevel?: LogLevel;
  readonly route?: string;
  readonly platform?: string;
  /** Epoch milliseconds. */
  readonly since?: number;
  /**
   * Text the entry must contain, any case: its message or a field's key or value. Matched after
   * redaction, so searching for a secret never tells that it was there.
   */
  readonly text?: string;
};

/** pino's numeric levels, for lines written with them. */
const PINO_LEVELS: Readonly<Record<number, LogLevel>> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** What every pino line carries and the readable line says elsewhere (or not at all). */
const FRAME_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'log']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function levelOf(value: unknown): LogLevel {
  if (typeof value === 'number') return PINO_LEVELS[value] ?? 'info';
  return (LOG_LEVELS as readonly unknown[]).includes(value) ? (value as LogLevel) : 'info';
}

function timeOf(value: unknown): string {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}

/** One line of a log file as an entry, redacted; a line that is not a JSON object is kept as its text. */
export function parseLogLine(source: LogSource, line: string): LogEntry | undefined {
  const text = line.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) return { source, time: '', level: 'info', what: String(redactValue(text)), fields: {} };
  const record = redactValue(parsed) as Record<string, unknown>;
  if (source === 'audit') {
    const { time, action, target, ok, ...rest } = record;
    const what = [action, target].filter((part) => typeof part === 'string' && part !== '').join(' ');
    return { source, time: timeOf(time), level: ok === false ? 'warn' : 'info', what, fields: { ok, ...rest } };
  }
  const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !FRAME_KEYS.has(key)));
  return { source, time: timeOf(record.time), level: levelOf(record.level), what: typeof record.msg === 'string' ? record.msg : '', fields };
}

const rank = (level: LogLevel) => LOG_LEVELS.indexOf(level);

export function matchesFilter(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.minLevel !== undefined && rank(entry.level) < rank(filter.minLevel)) return false;
  if (filter.route !== undefined && entry.fields.route !== filter.route) return false;
  if (filter.platform !== undefined && entry.fields.platform !== filter.platform) return false;
  if (filter.since !== undefined && !(entry.time !== '' && Date.parse(entry.time) >= filter.since)) return false;
  if (filter.text !== undefined && filter.text !== '' && !searchableText(entry).includes(filter.text.toLowerCase())) return false;
  return true;
}

/** What a text search looks through: the message and every field as `key=value`, lower-cased. */
function searchableText(entry: LogEntry): string {
  const fields = Object.entries(entry.fields).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [entry.what, ...fields].join('\n').toLowerCase();
}

/** Longest value shown in a readable line: the JSON output has them whole. */
const MAX_VALUE = 160;

function valueText(value: unknown): string {
  const text = typeof value === 'string' ? (/[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value) : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** `2026-11-28T18:00:40.554Z WARN  gateway webhook refused  route=ci reason="bad signature"` */
export function formatLogEntry(entry: LogEntry): string {
  const fields = Object.entries(entry.fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${valueText(value)}`);
  const head = `${entry.time || '-'.padEnd(24)} ${entry.level.toUpperCase().padEnd(5)} ${entry.source.padEnd(7)} ${entry.what}`;
  return fields.length ? `${head}  ${fields.join(' ')}` : head;
}

/** An entry as --json gives it: snake_case keys, the time in UTC. */
export function logEntryJson(entry: LogEntry): Record<string, unknown> {
  return { source: entry.source, time: entry.time || null, level: entry.level, what: entry.what, fields: entry.fields };
}

/** Entries of several files in time order (a stable sort: lines of one file keep their order). */
export function inTimeOrder(entries: readonly LogEntry[]): LogEntry[] {
  return [...entries].sort((a, b) => (a.time && b.time ? a.time.localeCompare(b.time) : 0));
}
