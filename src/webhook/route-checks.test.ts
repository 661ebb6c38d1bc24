// The start-up checks of a route: each problem is a sentence that names the route and the fix.
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_CHARS, routeProblems } from './route-checks.js';
import type { ResolvedRoute } from './routes.js';
import { resolveRoutes } from './routes.js';
import { validateConfig } from '../config/validate.js';

const route = (overrides: Partial<ResolvedRoute> = {}): ResolvedRoute => ({
  name: 'pr',
  source: 'config',
  secret: 'x'.repeat(MIN_SECRET_CHARS),
  enabled: true,
  events: [],
  filters: [],
  skills: [],
  toolsets: [],
  deliver: 'log',
  deliver_extra: {},
  session: 'per_event',
  commands: false,
  coalesce_seconds: 30,
  ...overrides,
});

describe('routeProblems: secrets', () => {
  it('accepts a secret of exactly 16 characters', () => {
    expect(routeProblems(route(), '0.0.0.0')).toEqual([]);
  });

  it('refuses 15 characters, naming the route, the length and where to set it', () => {
    expect(routeProblems(route({ secret: 'x'.repeat(15) }), '127.0.0.1')).toEqual([
      'route "pr" has a secret of 15 characters: use at least 16 (for example: openssl rand -hex 32) in platforms.webhook.extra.routes.pr.secret or platforms.webhook.extra.secret',
    ]);
  });

  it('tells a subscription to subscribe again', () => {
    expect(routeProblems(route({ source: 'subscription', secret: 'abc' }), '127.0.0.1')).toEqual([
      'route "pr" has a secret of 3 characters: use at least 16; subscribe it again without --secret to get a random one',
    ]);
  });

  it('lets INSECURE_NO_AUTH through on loopback only (it is a switch, not a short secret)', () => {
    expect(routeProblems(route({ secret: 'INSECURE_NO_AUTH' }), '127.0.0.1')).toEqual([]);
    expect(routeProblems(route({ secret: 'INSECURE_NO_AUTH' }), '0.0.0.0')).toHaveLength(1);
  });

  it('has nothing to say about a disabled route', () => {
    expect(routeProblems(route({ secret: '', enabled: false }), '0.0.0.0')).toEqual([]);
  });
});

describe('routeProblems: toolsets', () => {
  it('accepts known toolset names and names the unknown ones', () => {
    expect(routeProblems(route({ toolsets: ['files-readonly', 'mcp'] }), '127.0.0.1')).toEqual([]);
    expect(routeProblems(route({ toolsets: ['x', 'y'] }), '127.0.0.1')).toEqual([
      'route "pr" names unknown toolsets "x", "y" (known: terminal, files, files-readonly, skills, mcp, service-webhook, default)',
    ]);
  });
});

describe('resolveRoutes: secrets are trimmed', () => {
  const config = (webhook: Record<string, unknown>) => {
    const parsed = validateConfig({ platforms: { webhook: { enabled: true, extra: webhook } } });
    return parsed.config;
  };

  it('a secret of spaces is no secret, and the global one (trimmed) applies instead', () => {
    const table = resolveRoutes(config({ secret: '  global-secret-0123456789  ', routes: { a: { secret: '   ' }, b: {} } }), {});
    expect(table.routes.get('a')?.secret).toBe('global-secret-0123456789');
    expect(table.routes.get('b')?.secret).toBe('global-secret-0123456789');
  });

  it('with no global secret a route of spaces ends up with none, which the checks refuse', () => {
    const table = resolveRoutes(config({ routes: { a: { secret: ' \t ' } } }), {});
    const a = table.routes.get('a')!;
    expect(a.secret).toBe('');
    expect(routeProblems(a, '127.0.0.1')).toEqual(['route "a" has no secret: set platforms.webhook.extra.routes.a.secret or platforms.webhook.extra.secret']);
  });
});

describe('routeProblems: forge_comment targets and PR settings', () => {
  const forge = (overrides: Partial<ResolvedRoute>) => route({ deliver: 'forge_comment', ...overrides });

  it('fixed targets are checked by the code host the events come from', () => {
    expect(routeProblems(forge({ events: ['Merge Request Hook'], deliver_extra: { repo: 'acme/tools/hello', pr_number: 7 } }), '0.0.0.0')).toEqual([]);
    expect(routeProblems(forge({ events: ['pull_request'], deliver_extra: { repo: 'acme/tools/hello', pr_number: 7 } }), '0.0.0.0')).toEqual([
      'route "pr": deliver_extra.repo must be owner/name, got "acme/tools/hello"',
    ]);
    expect(routeProblems(forge({ events: ['Note Hook'], deliver_extra: { repo: 'acme/../x', pr_number: 7 } }), '0.0.0.0')).toEqual([
      'route "pr": deliver_extra.repo must be a GitLab project path (group/project), got "acme/../x"',
    ]);
  });

  it('a PR route needs no deliver_extra target; a mode must be new or update, and update needs forge_comment', () => {
    expect(routeProblems(forge({ session: 'per_pr', deliver_extra: { mode: 'update' } }), '0.0.0.0')).toEqual([]);
    expect(routeProblems(forge({ commands: true, deliver_extra: { mode: 'edit' } }), '0.0.0.0')).toEqual(['route "pr" has deliver_extra.mode "edit": use one of new, update']);
    expect(routeProblems(route({ session: 'per_pr', deliver_extra: { mode: 'update' } }), '0.0.0.0')).toEqual([
      'route "pr" has deliver_extra.mode "update", which only a forge_comment delivery can do (it delivers to log)',
    ]);
    expect(routeProblems(forge({}), '0.0.0.0')).toEqual([
      'route "pr" delivers a forge_comment but platforms.webhook.extra.routes.pr.deliver_extra has no repo and pr_number (for example repo: "{repository.full_name}", pr_number: "{number}")',
    ]);
  });
});
