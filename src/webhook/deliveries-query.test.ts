import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERIES_LIMIT, DUPLICATE_NOTE, parseDeliveriesQuery, parseEventId } from './deliveries-query.js';

const parse = (query: string) => parseDeliveriesQuery(new URLSearchParams(query));

describe('parseDeliveriesQuery', () => {
  it('takes a route, a state and a limit', () => {
    expect(parse('route=github-pr&state=delivered&limit=5')).toEqual({ ok: true, query: { route: 'github-pr', state: 'delivered', limit: 5 } });
    expect(parse('')).toEqual({ ok: true, query: { limit: DEFAULT_DELIVERIES_LIMIT } });
    expect(parse('route=&state=')).toEqual({ ok: true, query: { limit: DEFAULT_DELIVERIES_LIMIT } });
  });

  it('refuses a bad route name, an unknown state or parameter, and a bad limit', () => {
    expect(parse('route=../x')).toMatchObject({ ok: false });
    expect(parse('state=ignored')).toEqual({ ok: false, error: 'state must be one of accepted, running, done, delivering, delivered, failed, skipped (got "ignored")' });
    expect(parse('state=duplicate')).toEqual({ ok: false, error: `state "duplicate": ${DUPLICATE_NOTE}` });
    expect(parse('sort=id')).toEqual({ ok: false, error: 'unknown parameter "sort" (known: route, state, limit)' });
    for (const limit of ['0', '-1', '1.5', 'ten', '501', '']) expect(parse(`limit=${limit}`)).toMatchObject({ ok: false });
    expect(parse('limit=500')).toEqual({ ok: true, query: { limit: 500 } });
  });
});

describe('parseEventId', () => {
  it('takes a positive whole number only', () => {
    expect(parseEventId('12')).toBe(12);
    for (const text of ['0', '012', '-3', '1e3', 'abc', '', '99999999999999999']) expect(parseEventId(text)).toBeUndefined();
  });
});
