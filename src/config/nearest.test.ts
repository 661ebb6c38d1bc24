import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from './nearest.js';

describe('editDistance', () => {
  it.each([
    ['provder', 'provider', 1],
    ['provider', 'provider', 0],
    ['Model', 'model', 0],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe('nearest', () => {
  it('finds a typo, and nothing for another word', () => {
    expect(nearest('provder', ['provider', 'default', 'base_url'])).toBe('provider');
    expect(nearest('opnai', ['openai', 'openrouter', 'anthropic'])).toBe('openai');
    expect(nearest('nope', ['openai', 'openrouter', 'anthropic', 'custom'])).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
  });
  it('prefers the closest of several', () => {
    expect(nearest('defaul', ['default', 'defaults_x'])).toBe('default');
  });
});
