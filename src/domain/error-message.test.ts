import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.js';

describe('errorMessage', () => {
  it.each([
    [new Error('disk full'), 'disk full'],
    [new TypeError(''), 'TypeError'],
    ['plain text', 'plain text'],
    [{ message: 'from an object' }, 'from an object'],
    [{ code: 5 }, '{"code":5}'],
    [null, 'null'],
    [undefined, 'undefined'],
    [42, '42'],
  ])('reads %j', (thrown, text) => {
    expect(errorMessage(thrown)).toBe(text);
  });

  it('survives what JSON cannot write', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(errorMessage(loop)).toBe('[object Object]');
    expect(errorMessage(10n)).toBe('10');
  });
});
