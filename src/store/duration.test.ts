import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000, 's'],
    ['30m', 1_800_000, 'm'],
    ['12h', 43_200_000, 'h'],
    ['30d', 2_592_000_000, 'd'],
    ['2w', 1_209_600_000, 'w'],
    ['0s', 0, 's'],
    [' 7d ', 604_800_000, 'd'],
  ])('reads %j', (text, ms, unit) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms, unit });
  });

  it.each(['', '7', 'd', '-1d', '1.5h', '7 d', '7D', '1y', '1234567s', '3 days'])('refuses %j', (text) => {
    expect(parseDuration(text)).toEqual({ ok: false });
  });
});
