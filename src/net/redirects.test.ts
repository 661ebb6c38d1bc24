import { describe, expect, it } from 'vitest';
import { checkScheme, decideHop } from './redirects.js';

const here = new URL('https://example.com/a/b?x=1');

describe('decideHop', () => {
  it.each([200, 204, 304, 404, 500])('stops on HTTP %i', (status) => {
    expect(decideHop(here, status, '/elsewhere', 0, 5)).toEqual({ kind: 'done' });
  });

  it.each([301, 302, 303, 307, 308])('follows HTTP %i, resolving the Location against the page', (status) => {
    expect(decideHop(here, status, '../c', 0, 5)).toEqual({ kind: 'follow', url: new URL('https://example.com/c') });
  });

  it('counts hops: the fifth redirect is followed, the sixth is an error', () => {
    expect(decideHop(here, 302, '/next', 4, 5)).toMatchObject({ kind: 'follow' });
    expect(decideHop(here, 302, '/next', 5, 5)).toEqual({ kind: 'error', message: 'more than 5 redirects' });
    expect(decideHop(here, 302, '/next', 0, 0)).toEqual({ kind: 'error', message: 'more than 0 redirects' });
  });

  it('refuses redirects without a Location, to invalid URLs, and to other schemes', () => {
    expect(decideHop(here, 301, undefined, 0, 5)).toEqual({ kind: 'error', message: 'HTTP 301 redirect without a Location header' });
    expect(decideHop(here, 302, 'http://[::1', 0, 5)).toEqual({ kind: 'error', message: 'HTTP 302 redirect to an invalid URL "http://[::1"' });
    expect(decideHop(here, 302, 'file:///etc/passwd', 0, 5)).toEqual({
      kind: 'error',
      message: 'redirected to file:///etc/passwd: only http and https URLs are fetched, not file',
    });
  });
});

describe('checkScheme', () => {
  it.each([
    ['http://example.com/', true],
    ['https://example.com/', true],
    ['ftp://example.com/', false],
    ['data:text/plain,hi', false],
    ['javascript:alert(1)', false],
  ])('%s → %s', (url, ok) => {
    expect(checkScheme(new URL(url)).ok).toBe(ok);
  });
});
