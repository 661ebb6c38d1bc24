// The Usage page's windows, with no I/O: the last 7, 30 or 90 UTC days (today included) or a
// custom range of whole UTC days, the previous period of the same length, the query each sends
// (the same since/until/by as `iris usage`), and the figures the page derives from the rows.
import { AUX_TASK_IDS } from '../../domain/slots.js';
import { DAY_MS, usageTotal, utcDay, type UsageGroupBy, type UsageJsonRow } from '../../domain/usage-ledger.js';

/** Calls at or after `since` and before `until` (epoch ms, UTC midnights). */
export type UsageRange = { readonly since: number; readonly until: number };

export const PRESET_DAYS = [7, 30, 90] as const;

const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;

function utcMidnight(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** The last `days` UTC days, today included. */
export function lastDays(days: number, now: number): UsageRange {
  const end = utcMidnight(now) + DAY_MS;
  return { since: end - days * DAY_MS, until: end };
}

/** The UTC midnight a `YYYY-MM-DD` names, or undefined for anything else (2026-02-30 too). */
function dayStart(text: string): number | undefined {
  if (!DAY_TEXT.test(text)) return undefined;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(at) || utcDay(at) !== text ? undefined : at;
}

export type CustomRange = { readonly ok: true; readonly range: UsageRange } | { readonly ok: false; readonly error: string };

/** From the first day to the last, both included (UTC days, as the rows are grouped). */
export function customRange(from: string, to: string): CustomRange {
  const start = dayStart(from);
  const last = dayStart(to);
  if (start === undefined || last === undefined) return { ok: false, error: 'Pick a first and a last day.' };
  if (last < start) return { ok: false, error: 'The last day comes before the first.' };
  return { ok: true, range: { since: start, until: last + DAY_MS } };
}

/** The period of the same length that ends where this one starts. */
export function previousRange(range: UsageRange): UsageRange {
  return { since: range.since - (range.until - range.since), until: range.since };
}

/** `since=…&until=…&by=…`: what `iris usage --since … --until … --by … --json` is asked. */
export function usageQuery(range: UsageRange, by: UsageGroupBy): string {
  return new URLSearchParams({ since: isoInstant(range.since), until: isoInstant(range.until), by }).toString();
}

/** `2026-11-22T00:00:00Z`: an instant as `iris usage --since` and `--until` read it. */
export function isoInstant(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Every UTC day of the range, oldest first. */
export function daysOf(range: UsageRange): string[] {
  const days: string[] = [];
  for (let at = range.since; at < range.until; at += DAY_MS) days.push(utcDay(at));
  return days;
}

/** A row with nothing in it, for a day or a slot without calls. */
export function emptyRow(key: string): UsageJsonRow {
  return { ...usageTotal([]), key };
}

/** The by-day rows with a zero row for every day without calls (a chart's time line). */
export function fillDays(rows: readonly UsageJsonRow[], range: UsageRange): UsageJsonRow[] {
  const byDay = new Map(rows.map((row) => [row.key, row]));
  return daysOf(range).map((day) => byDay.get(day) ?? emptyRow(day));
}

/** The main model and the 11 aux slots, each with its row (zero when it made no call), then any other task. */
export function slotRows(rows: readonly UsageJsonRow[]): UsageJsonRow[] {
  const slots = ['main', ...AUX_TASK_IDS];
  const byTask = new Map(rows.map((row) => [row.key, row]));
  return [...slots.map((slot) => byTask.get(slot) ?? emptyRow(slot)), ...rows.filter((row) => !slots.includes(row.key))];
}

/** The change from the previous period in percent (rounded), or null when there is nothing to compare with. */
export function changePercent(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}
