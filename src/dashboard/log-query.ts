// GET /api/logs?log=&level=&q=&route=&platform=&limit= as a checked query, or the sentence a 400
// answers with. Pure: the route reads the files with what this returns.
import { LOG_LEVELS, LOG_SOURCES, type LogFilter, type LogLevel, type LogSource } from '../log/log-lines.js';
import { checkName } from '../security/names.js';

export const DEFAULT_LOG_LIMIT = 200;
export const MAX_LOG_LIMIT = 1000;
/** Longest text search: enough for any phrase, short enough to echo back in an error. */
export const MAX_QUERY_CHARS = 200;

const KNOWN = ['log', 'level', 'q', 'route', 'platform', 'limit'] as const;
/** A platform as log lines name it (telegram, slack, sms, webhook…). */
const PLATFORM = /^[a-z][a-z0-9_-]{0,31}$/;

export type LogQuery = { readonly log: LogSource; readonly filter: LogFilter; readonly limit: number };
export type LogQueryCheck = { readonly ok: true; readonly query: LogQuery } | { readonly ok: false; readonly error: string };

const shown = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);

export function parseLogQuery(params: URLSearchParams): LogQueryCheck {
  for (const name of params.keys()) {
    if (!(KNOWN as readonly string[]).includes(name)) return { ok: false, error: `unknown parameter ${shown(name)} (known: ${KNOWN.join(', ')})` };
    if (params.getAll(name).length > 1) return { ok: false, error: `parameter "${name}" given more than once` };
  }
  const log = params.get('log') ?? 'gateway';
  if (!(LOG_SOURCES as readonly string[]).includes(log)) return { ok: false, error: `log must be one of ${LOG_SOURCES.join(', ')} (got ${shown(log)})` };
  const level = params.get('level') ?? '';
  if (level !== '' && !(LOG_LEVELS as readonly string[]).includes(level)) return { ok: false, error: `level must be one of ${LOG_LEVELS.join(', ')} (got ${shown(level)})` };
  const text = params.get('q') ?? '';
  if (text.length > MAX_QUERY_CHARS) return { ok: false, error: `q is longer than ${MAX_QUERY_CHARS} characters` };
  const route = params.get('route') ?? '';
  if (route !== '') {
    const checked = checkName('route', route);
    if (!checked.ok) return { ok: false, error: checked.error };
  }
  const platform = params.get('platform') ?? '';
  if (platform !== '' && !PLATFORM.test(platform)) return { ok: false, error: `platform must be a platform name such as telegram or slack (got ${shown(platform)})` };
  const limitText = params.get('limit') ?? String(DEFAULT_LOG_LIMIT);
  const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LOG_LIMIT)) return { ok: false, error: `limit must be a whole number from 1 to ${MAX_LOG_LIMIT} (got ${shown(limitText)})` };
  const filter: LogFilter = {
    ...(level !== '' ? { minLevel: level as LogLevel } : {}),
    ...(text !== '' ? { text } : {}),
    ...(route !== '' ? { route } : {}),
    ...(platform !== '' ? { platform } : {}),
  };
  return { ok: true, query: { log: log as LogSource, filter, limit } };
}
