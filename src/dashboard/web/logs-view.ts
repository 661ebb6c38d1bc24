// The Logs page's decisions, pure: its filters as the /api/logs query, and a line's fields as the
// short "key=value" text the table shows.

export const LOG_NAMES = ['gateway', 'agent', 'audit'] as const;
export type LogName = (typeof LOG_NAMES)[number];
export const LEVEL_CHOICES = ['', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export type LogFilters = {
  readonly log: LogName;
  /** '' for every level; else this level and above. */
  readonly level: string;
  readonly q: string;
  readonly route: string;
  readonly platform: string;
};

export const DEFAULT_FILTERS: LogFilters = { log: 'gateway', level: '', q: '', route: '', platform: '' };
/** Lines asked for per refresh. */
export const LOG_LIMIT = 200;
export const AUTO_REFRESH_MS = 5_000;

/** `/api/logs?log=gateway&level=warn&q=…`: empty filters left out, values trimmed and encoded. */
export function logsPath(filters: LogFilters, limit = LOG_LIMIT): string {
  const params = new URLSearchParams({ log: filters.log });
  for (const key of ['level', 'q', 'route', 'platform'] as const) {
    const value = filters[key].trim();
    if (value !== '') params.set(key, value);
  }
  params.set('limit', String(limit));
  return `/api/logs?${params.toString()}`;
}

/** Longest value shown in the table; the full line is in the log file. */
export const MAX_FIELD_CHARS = 120;

/** The fields worth a column of their own are shown first, then the rest in the order written. */
const FIRST_FIELDS = ['route', 'platform', 'event', 'session', 'actor', 'ok'];

export function fieldsText(fields: Readonly<Record<string, unknown>>): string[] {
  const keys = Object.keys(fields).filter((key) => fields[key] !== undefined);
  const ordered = [...FIRST_FIELDS.filter((key) => keys.includes(key)), ...keys.filter((key) => !FIRST_FIELDS.includes(key))];
  return ordered.map((key) => {
    const value = fields[key];
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `${key}=${text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS - 1)}…` : text}`;
  });
}

/** `2026-11-28T18:00:40.554Z` as `2026-11-28 18:00:40` (UTC, as the log files have it). */
export function timeText(time: string | null): string {
  if (time === null || time === '') return '—';
  return time.replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace(/Z$/, '');
}

export function emptyText(filters: LogFilters): string {
  const filtered = filters.level !== '' || filters.q.trim() !== '' || filters.route.trim() !== '' || filters.platform.trim() !== '';
  if (filtered) return `No line of the ${filters.log} log matches these filters. Clear a filter to see more.`;
  if (filters.log === 'audit') return 'The audit log is empty: it records dashboard sign-ins and every change made here or with the CLI.';
  return `The ${filters.log} log has no lines yet. Lines appear as Iris runs (iris gateway start); press Refresh to look again.`;
}
