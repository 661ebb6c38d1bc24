import { describe, expect, it } from 'vitest';
import { hrefOf, parseLocation } from './nav.js';

describe('parseLocation', () => {
  it('opens the Models page without a hash or with an unknown page', () => {
    expect(parseLocation('')).toEqual({ page: 'models' });
    expect(parseLocation('#/nowhere/x')).toEqual({ page: 'models' });
  });
  it('reads the page and its id', () => {
    expect(parseLocation('#/sessions')).toEqual({ page: 'sessions' });
    expect(parseLocation('#/chat/abc%2F1')).toEqual({ page: 'chat', id: 'abc/1' });
    expect(parseLocation('#/chat/%E0%A4%A')).toEqual({ page: 'chat' });
  });
  it('round-trips through hrefOf', () => {
    const location = { page: 'sessions', id: 'a b/c' } as const;
    expect(parseLocation(hrefOf(location))).toEqual(location);
  });
});
