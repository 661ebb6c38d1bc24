// A sign-in counts as a credential wherever "authenticated" is decided: credentials, the endpoint
// plan, routing's discovery and warnings, and the dashboard's picker; never for cloud-hosted,
// custom, or an anthropic route on a hosted endpoint; an API key still wins.
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { modelOptions } from '../dashboard/read-models.js';
import { isAuthenticated, resolveCredential } from '../providers/credentials.js';
import { planEndpoint } from '../providers/endpoint.js';
import { resolveCandidates } from '../routing/resolve.js';
import type { OAuthView } from './view.js';

const signedIn = (provider: string, usable = true): OAuthView => new Map([[provider, { expiresAt: null, refreshable: false, usable }]]);

describe('an OAuth sign-in as a credential', () => {
  it('resolveCredential: oauth_token when no key; the key wins; refused where the spec forbids it', () => {
    expect(resolveCredential({ provider: 'openrouter', model: 'm' }, {}, true)).toEqual({ kind: 'oauth_token', provider: 'openrouter' });
    expect(resolveCredential({ provider: 'openrouter', model: 'm' }, { OPENROUTER_API_KEY: 'k' }, true)).toEqual({ kind: 'api_key', value: 'k', source: 'OPENROUTER_API_KEY' });
    expect(resolveCredential({ provider: 'openrouter', model: 'm' }, {}, false)).toEqual({ kind: 'none', missing: 'OPENROUTER_API_KEY' });
    expect(resolveCredential({ provider: 'custom', model: 'm', baseUrl: 'http://h/v1' }, {}, true).kind).toBe('none');
    expect(resolveCredential({ provider: 'cloud-hosted', model: 'm', baseUrl: 'https://r.openai.azure.com/openai/v1' }, {}, true).kind).toBe('none');
    const hosted = { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://r.services.ai.azure.com/anthropic' };
    expect(resolveCredential(hosted, {}, true).kind).toBe('none');
    expect(isAuthenticated(hosted, {}, true)).toBe(false);
    expect(isAuthenticated({ provider: 'anthropic', model: 'm' }, { ANTHROPIC_BASE_URL: hosted.baseUrl }, true)).toBe(false);
    expect(isAuthenticated({ provider: 'anthropic', model: 'm' }, {}, true)).toBe(true);
  });

  it('planEndpoint: a Bearer authorization header, even on the messages API', () => {
    const plan = planEndpoint({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, {}, { oauth: true });
    expect(plan.ok && [plan.credential.kind, plan.authHeader]).toEqual(['oauth_token', 'authorization']);
    const keyed = planEndpoint({ provider: 'anthropic', model: 'claude-sonnet-4-5' }, { ANTHROPIC_API_KEY: 'k' }, { oauth: true });
    expect(keyed.ok && [keyed.credential.kind, keyed.authHeader]).toEqual(['api_key', 'x-api-key']);
  });

  it('routing: the signed-in main route is usable, discovery finds a signed-in provider, an expired one says so', () => {
    const config = validateConfig({ model: { provider: 'anthropic', default: 'claude-sonnet-4-5' } }).config;
    const without = resolveCandidates(config, {}, 'main');
    expect(without.candidates[0]?.unusable).toEqual({ code: 'no_credential', message: 'no credential (set ANTHROPIC_API_KEY)', missing: 'ANTHROPIC_API_KEY' });
    const signed = resolveCandidates(config, {}, 'main', signedIn('anthropic'));
    expect(signed.candidates[0]).toMatchObject({ provider: 'anthropic', reason: 'main' });
    expect(signed.candidates[0]?.unusable).toBeUndefined();
    expect(signed.warnings).toEqual([]);
    const expired = resolveCandidates(config, {}, 'main', signedIn('anthropic', false));
    expect(expired.candidates[0]?.unusable).toEqual({ code: 'oauth_expired', message: 'no credential (the OAuth sign-in has expired: run iris auth login anthropic)' });
    const discovery = resolveCandidates(config, {}, 'main', signedIn('openai')).candidates.filter((c) => c.reason === 'discovery');
    expect(discovery.map((c) => [c.provider, c.unusable])).toContainEqual(['openai', undefined]);
  });

  it('the dashboard picker lists a signed-in provider', () => {
    const config = validateConfig({}).config;
    expect(modelOptions(config, {}).providers.map((p) => p.slug)).not.toContain('openai');
    expect(modelOptions(config, {}, signedIn('openai')).providers.map((p) => p.slug)).toContain('openai');
    expect(modelOptions(config, {}, signedIn('openai', false)).providers.map((p) => p.slug)).not.toContain('openai');
  });
});
