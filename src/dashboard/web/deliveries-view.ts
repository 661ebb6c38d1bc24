// What the Deliveries page says about an event, decided from its row: the badge's words and tone,
// the timings line, which buttons it offers, and the empty list's advice. Pure.
import type { DeliveryRow, EventState } from './deliveries-api.js';

export type Tone = 'ok' | 'busy' | 'bad' | 'quiet';

const TONES: Record<EventState, Tone> = {
  accepted: 'busy',
  running: 'busy',
  done: 'busy',
  delivering: 'busy',
  delivered: 'ok',
  failed: 'bad',
  skipped: 'quiet',
};

export function stateTone(state: EventState): Tone {
  return TONES[state];
}

/** Still on its way: the page keeps polling for it, and neither button applies yet. */
export function isUnderWay(state: EventState): boolean {
  return TONES[state] === 'busy';
}

/** Redeliver needs a stored answer and no delivery under way; Re-run only a finished event. */
export function actionsFor(detail: { readonly state: EventState; readonly answer: string | null }): { readonly redeliver: boolean; readonly rerun: boolean } {
  const finished = !isUnderWay(detail.state);
  return { redeliver: finished && detail.state !== 'skipped' && detail.answer !== null, rerun: finished };
}

/** `12s`, `4m 5s`, `2h 10m`: how long from one time to another. */
export function durationText(fromIso: string, toIso: string): string {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 0) return '–';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `3 runs · 1 delivery`: the attempts so far. */
export function attemptsText(row: Pick<DeliveryRow, 'run_attempts' | 'delivery_attempts'>): string {
  return `${plural(row.run_attempts, 'run')} · ${plural(row.delivery_attempts, 'delivery attempt')}`;
}

/** `2026-11-20 10:00:05` in UTC, as the CLI and the logs write times. */
export function timeText(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, '').replace(/Z$/, '');
}

export function emptyText(route: string, state: string): string {
  if (route !== '' || state !== '') return 'No events match these filters. Clear them to see every route’s events.';
  return 'No webhook events yet. Send one with `iris webhook test <route>` (or the Webhooks page’s Send test event) and it shows here as it runs.';
}

/** The routes the route filter offers: those seen in the lists so far, and the one chosen. */
export function routeOptions(seen: Iterable<string>, chosen: string): string[] {
  const names = new Set(seen);
  if (chosen !== '') names.add(chosen);
  return [...names].sort();
}
