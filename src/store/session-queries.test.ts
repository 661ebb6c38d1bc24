import { describe, expect, it } from 'vitest';
import { prefixUpperBound, sessionFilters } from './session-queries.js';

describe('prefixUpperBound', () => {
  it('is the prefix with its last character moved one up', () => {
    expect(prefixUpperBound('s_ab')).toBe('s_ac');
    expect(prefixUpperBound('webhook:')).toBe('webhook;');
  });
  it('carries past characters that cannot move up, and has no bound for those alone', () => {
    expect(prefixUpperBound('a\uffff')).toBe('b');
    expect(prefixUpperBound('\uffff')).toBeUndefined();
    expect(prefixUpperBound('')).toBeUndefined();
  });
});

describe('sessionFilters', () => {
  it('is empty without filters', () => {
    expect(sessionFilters({ limit: 3 })).toEqual({ sql: '', params: {} });
  });
  it('joins every given filter with AND, prefixes as index ranges', () => {
    expect(sessionFilters({ source: 'cli', idPrefix: 's_ab', title: 'T', updatedBefore: 5 })).toEqual({
      sql: 'WHERE source = @source AND id >= @idFrom AND id < @idTo AND title = @title AND updated_at < @updatedBefore',
      params: { source: 'cli', idFrom: 's_ab', idTo: 's_ac', title: 'T', updatedBefore: 5 },
    });
    expect(sessionFilters({ sourcePrefix: 'webhook:' })).toEqual({
      sql: 'WHERE source >= @sourceFrom AND source < @sourceTo',
      params: { sourceFrom: 'webhook:', sourceTo: 'webhook;' },
    });
  });
});
