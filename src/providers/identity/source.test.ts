import { describe, expect, it } from 'vitest';
import { parseExpiry } from './expiry.js';
import { safeMessage } from './source.js';

describe('safeMessage', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL2FpLmF6dXJlLmNvbSJ9.c2lnbmF0dXJl';

  it('cuts out known secret values, longest first', () => {
    expect(safeMessage('bad secret abcd-1234-efgh (prefix abcd-1234)', ['abcd-1234', 'abcd-1234-efgh'])).toBe(
      'bad secret [redacted] (prefix [redacted])',
    );
  });

  it('redacts credential-shaped text it was not told about', () => {
    expect(safeMessage(`upstream said: Bearer ${jwt} and ${jwt}`, [])).toBe('upstream said: Bearer [redacted] and [redacted]');
  });

  it('leaves very short values alone, collapses whitespace and caps the length', () => {
    expect(safeMessage('a  b\n\tc', ['a'])).toBe('a b c');
    const long = safeMessage('x'.repeat(1000), []);
    expect(long).toHaveLength(300);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('parseExpiry', () => {
  const now = 1_000_000;

  it.each([
    [{ epochSeconds: 1_900_000_000 }, 1_900_000_000_000],
    [{ epochSeconds: '1900000000' }, 1_900_000_000_000],
    [{ epochSeconds: '1900000000', relativeSeconds: 60 }, 1_900_000_000_000],
    [{ date: '2030-01-01T00:00:00Z' }, Date.UTC(2030, 0, 1)],
    // Legacy app platforms put a date string in expires_on.
    [{ epochSeconds: '2030-01-01T00:00:00+00:00' }, Date.UTC(2030, 0, 1)],
    [{ relativeSeconds: '3599' }, now + 3_599_000],
    [{ epochSeconds: '', date: 'not a date' }, undefined],
    [{}, undefined],
  ])('reads %j', (fields, expected) => {
    expect(parseExpiry(fields, now)).toBe(expected);
  });
});
