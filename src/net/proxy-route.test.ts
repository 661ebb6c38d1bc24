import { describe, expect, it } from 'vitest';
import { proxyFor } from './proxy-route.js';

const proxy = { httpProxy: 'http://proxy:3128', httpsProxy: 'http://secure-proxy:3128' };

describe('proxyFor', () => {
  it('picks the proxy by scheme, and none without settings', () => {
    expect(proxyFor(new URL('http://example.com/'), proxy)).toBe('http://proxy:3128');
    expect(proxyFor(new URL('https://example.com/'), proxy)).toBe('http://secure-proxy:3128');
    expect(proxyFor(new URL('https://example.com/'), {})).toBeUndefined();
  });

  it.each([
    ['example.com', 'https://example.com/', undefined],
    ['.example.com', 'https://api.example.com/', undefined],
    ['*.example.com', 'https://api.example.com/', undefined],
    ['example.com', 'https://notexample.com/', 'http://secure-proxy:3128'],
    ['example.com:8443', 'https://example.com/', 'http://secure-proxy:3128'],
    ['example.com:8443', 'https://example.com:8443/', undefined],
    ['a.test, example.com', 'https://EXAMPLE.com/', undefined],
    ['*', 'https://anything.test/', undefined],
    ['10.0.0.1', 'http://10.0.0.1/', undefined],
  ])('NO_PROXY %j and %s → %s', (noProxy, url, expected) => {
    expect(proxyFor(new URL(url), { ...proxy, noProxy })).toBe(expected);
  });
});
