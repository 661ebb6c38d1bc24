// The start of a usage window, as `iris usage --since` (and the dashboard) take it: a span back
// from now (`90s`, `30m`, `24h`, `7d`, `2w`; see duration.ts) or a calendar date (`2026-11-01`,
// local midnight) or a date and time (`2026-11-01T09:30`, local; `…Z` or `…+02:00` as given).
import { parseDuration } from './duration.js';

export type Since = { readonly ok: true; readonly since: number } | { readonly ok: false; readonly message: string };

// A date, optionally with a time (seconds optional), optionally with a zone.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?)?$/;

function invalid(text: string): Since {
  return {
    ok: false,
    message: `--since ${JSON.stringify(text)} is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)`,
  };
}

/** Whether the parts name a real calendar date and time (not 2026-02-30, not 25:00). */
function realParts(parts: readonly number[]): boolean {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** Epoch milliseconds of a date (and time), read in local time unless a zone is given. */
function parseDate(text: string, match: RegExpExecArray): number | undefined {
  const parts = match.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part)));
  if (!realParts(parts)) return undefined;
  if (match[7] !== undefined) {
    const zoned = Date.parse(text);
    return Number.isNaN(zoned) ? undefined : zoned; // an offset such as +25:00
  }
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
  return new Date(year, month - 1, day, hour, minute, second).getTime();
}

export function parseSince(text: string, now: number): Since {
  const trimmed = text.trim();
  const span = parseDuration(trimmed);
  if (span.ok) {
    if (span.ms === 0) return { ok: false, message: `--since ${JSON.stringify(text)} is an empty window; use at least 1${span.unit}` };
    return { ok: true, since: now - span.ms };
  }
  const date = DATE_TIME.exec(trimmed);
  const since = date ? parseDate(trimmed, date) : undefined;
  if (since === undefined) return invalid(text);
  if (since > now) return { ok: false, message: `--since ${JSON.stringify(text)} is in the future` };
  return { ok: true, since };
}

export type Until = { readonly ok: true; readonly until: number } | { readonly ok: false; readonly message: string };

/**
 * The end of a usage window (`--until`, exclusive), read as --since is: a span back from now
 * (`7d`: until a week ago) or a date and time; unlike --since it may be in the future (a range
 * that ends tomorrow at midnight).
 */
export function parseUntil(text: string, now: number): Until {
  const trimmed = text.trim();
  const span = parseDuration(trimmed);
  if (span.ok) return { ok: true, until: now - span.ms };
  const date = DATE_TIME.exec(trimmed);
  const until = date ? parseDate(trimmed, date) : undefined;
  if (until === undefined) {
    return { ok: false, message: `--until ${JSON.stringify(text)} is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)` };
  }
  return { ok: true, until };
}
