import { describe, expect, it } from 'vitest';
import { parseSince } from './since.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('parseSince', () => {
  it.each([
    ['30m', NOW - 30 * 60_000],
    ['24h', NOW - 24 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['2w', NOW - 14 * 86_400_000],
    [' 1d ', NOW - 86_400_000],
  ])('reads the span %j back from now', (text, since) => {
    expect(parseSince(text, NOW)).toEqual({ ok: true, since });
  });

  it('reads a date as local midnight, and a date and time as local time', () => {
    expect(parseSince('2026-11-01', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 1).getTime() });
    expect(parseSince('2026-11-01T09:30', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 1, 9, 30).getTime() });
    expect(parseSince('2026-11-01T09:30:15', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 1, 9, 30, 15).getTime() });
  });

  it('reads a date and time with a zone as given', () => {
    expect(parseSince('2026-11-01T09:30Z', NOW)).toEqual({ ok: true, since: Date.UTC(2026, 10, 1, 9, 30) });
    expect(parseSince('2026-11-01T09:30:00+02:00', NOW)).toEqual({ ok: true, since: Date.UTC(2026, 10, 1, 7, 30) });
  });

  it.each(['', 'yesterday', '7', 'd', '-7d', '7D', '1.5h', '7 d', '1y', '1234567d', '2026-13-01', '2026-02-30', '2026-11-1', '2026-11-01T24:00', '2026-11-01T09:30+25:00', '0050-01-01'])(
    'refuses %j with the forms it takes',
    (text) => {
      expect(parseSince(text, NOW)).toEqual({
        ok: false,
        message: `--since ${JSON.stringify(text)} is not valid (use a span such as 30m, 24h, 7d or 2w, or a date such as 2026-11-01)`,
      });
    },
  );

  it('refuses an empty window and a start in the future', () => {
    expect(parseSince('0d', NOW)).toEqual({ ok: false, message: '--since "0d" is an empty window; use at least 1d' });
    expect(parseSince('2026-11-21T12:00:01Z', NOW)).toEqual({ ok: false, message: '--since "2026-11-21T12:00:01Z" is in the future' });
    expect(parseSince('2026-11-21T12:00:00Z', NOW)).toEqual({ ok: true, since: NOW });
  });
});
