import { describe, expect, it } from 'vitest';
import { actionsFor, attemptsText, durationText, emptyText, isUnderWay, routeOptions, stateTone, timeText } from './deliveries-view.js';

describe('the deliveries view', () => {
  it('gives each state a tone, and knows which are still under way', () => {
    expect(['accepted', 'running', 'done', 'delivering', 'delivered', 'failed', 'skipped'].map((s) => stateTone(s as never))).toEqual(['busy', 'busy', 'busy', 'busy', 'ok', 'bad', 'quiet']);
    expect(isUnderWay('delivering')).toBe(true);
    expect(isUnderWay('failed')).toBe(false);
  });

  it('offers Redeliver only with a stored answer and nothing under way; Re-run once finished', () => {
    expect(actionsFor({ state: 'delivered', answer: 'ok' })).toEqual({ redeliver: true, rerun: true });
    expect(actionsFor({ state: 'failed', answer: 'ok' })).toEqual({ redeliver: true, rerun: true });
    expect(actionsFor({ state: 'failed', answer: null })).toEqual({ redeliver: false, rerun: true });
    expect(actionsFor({ state: 'skipped', answer: null })).toEqual({ redeliver: false, rerun: true });
    expect(actionsFor({ state: 'running', answer: null })).toEqual({ redeliver: false, rerun: false });
    expect(actionsFor({ state: 'done', answer: 'ok' })).toEqual({ redeliver: false, rerun: false });
  });

  it('writes durations, attempts and times', () => {
    expect(durationText('2026-11-20T10:00:00.000Z', '2026-11-20T10:00:12.400Z')).toBe('12s');
    expect(durationText('2026-11-20T10:00:00.000Z', '2026-11-20T10:04:05.000Z')).toBe('4m 5s');
    expect(durationText('2026-11-20T10:00:00.000Z', '2026-11-20T12:10:00.000Z')).toBe('2h 10m');
    expect(durationText('2026-11-20T10:00:01.000Z', '2026-11-20T10:00:00.000Z')).toBe('–');
    expect(attemptsText({ run_attempts: 1, delivery_attempts: 2 })).toBe('1 run · 2 delivery attempts');
    expect(timeText('2026-11-20T10:00:05.123Z')).toBe('2026-11-20 10:00:05');
  });

  it('says what to do when the list is empty, and offers the routes seen', () => {
    expect(emptyText('', '')).toContain('iris webhook test <route>');
    expect(emptyText('ci', '')).toBe('No events match these filters. Clear them to see every route’s events.');
    expect(routeOptions(['b', 'a', 'b'], 'c')).toEqual(['a', 'b', 'c']);
    expect(routeOptions([], '')).toEqual([]);
  });
});
