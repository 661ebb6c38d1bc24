import { describe, expect, it } from 'vitest';
import { named } from './pg-named.js';

describe('named parameters for node-postgres', () => {
  it('numbers each name once, in order of first use', () => {
    expect(named('SELECT * FROM t WHERE a = @a AND b < @b OR c = @a LIMIT @limit', { a: 1, b: 'x', limit: 5 })).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b < $2 OR c = $1 LIMIT $3',
      values: [1, 'x', 5],
    });
  });

  it('refuses a name without a value', () => {
    expect(() => named('WHERE a = @missing', {})).toThrow('no value for @missing');
  });
});
