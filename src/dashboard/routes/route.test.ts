import { describe, expect, it } from 'vitest';
import { matchPath, matchRoute, type Route } from './route.js';

const run = async () => null;
const routes: Route[] = [
  { method: 'GET', path: '/api/sessions', run },
  { method: 'GET', path: '/api/sessions/:id', run },
  { method: 'DELETE', path: '/api/sessions/:id', run },
];

describe('matchPath', () => {
  it('reads named segments, decoded', () => {
    expect(matchPath('/api/sessions/:id', '/api/sessions/a%20b')).toEqual({ id: 'a b' });
    expect(matchPath('/api/sessions', '/api/sessions')).toEqual({});
  });
  it('refuses an empty segment, a longer path, a bad escape and another literal', () => {
    expect(matchPath('/api/sessions/:id', '/api/sessions/')).toBeUndefined();
    expect(matchPath('/api/sessions/:id', '/api/sessions/a/b')).toBeUndefined();
    expect(matchPath('/api/sessions/:id', '/api/sessions/%E0%A4%A')).toBeUndefined();
    expect(matchPath('/api/sessions/:id', '/api/session/a')).toBeUndefined();
  });
});

describe('matchRoute', () => {
  it('finds the route for the method, or the methods the path has', () => {
    const found = matchRoute(routes, 'DELETE', '/api/sessions/x');
    expect(found && 'route' in found ? [found.route.method, found.params] : found).toEqual(['DELETE', { id: 'x' }]);
    expect(matchRoute(routes, 'POST', '/api/sessions/x')).toEqual({ allow: 'GET, DELETE' });
    expect(matchRoute(routes, 'GET', '/api/nothing')).toBeUndefined();
  });
});
