import { describe, expect, it } from 'vitest';
import { IDENTITY_401_HINT } from '../../providers/cloud/hints.js';
import type { ProviderUse } from '../providers-in-use.js';
import { baseUrlKey, checkCredential, checkEndpoint, checkProbe, isProbeable } from './providers.js';

const BASE = 'https://openrouter.ai/api/v1';

function use(patch: Partial<ProviderUse> = {}): ProviderUse {
  return {
    id: 'openrouter',
    provider: 'openrouter',
    name: 'OpenRouter',
    route: { provider: 'openrouter', model: 'x/y' },
    usedBy: ['main'],
    authMode: 'api_key',
    credential: { kind: 'api_key', variable: 'OPENROUTER_API_KEY', origin: '.env' },
    endpoint: { ok: true, baseUrl: BASE, modelsUrl: `${BASE}/models` },
    ...patch,
  };
}

describe('checkCredential', () => {
  it.each([
    [use(), 'ok', 'api key in OPENROUTER_API_KEY (from .env); used by main', undefined],
    [
      use({ credential: { kind: 'missing', variable: 'OPENROUTER_API_KEY', optional: false }, usedBy: ['main', 'auxiliary.vision'] }),
      'fail',
      'no api key: OPENROUTER_API_KEY is not set (used by main, auxiliary.vision)',
      'iris config set OPENROUTER_API_KEY <key>',
    ],
    [
      use({ provider: 'custom', id: 'custom', credential: { kind: 'missing', variable: 'LLAMA_KEY', optional: true } }),
      'warn',
      'LLAMA_KEY is not set: requests go without a key (used by main)',
      'iris config set LLAMA_KEY <key>, or drop key_env if the endpoint needs no key',
    ],
    [use({ provider: 'custom', id: 'custom', credential: { kind: 'none' } }), 'ok', 'no key (none needed); used by main', undefined],
    [
      use({ provider: 'cloud-hosted', id: 'cloud-hosted', authMode: 'identity_token', credential: { kind: 'identity_token', scope: 'https://ai.azure.com/.default' } }),
      'ok',
      'identity token (model.auth_mode: identity_token), scope https://ai.azure.com/.default; used by main',
      undefined,
    ],
    [
      use({ provider: 'nope', id: 'nope', name: undefined }),
      'fail',
      'unknown provider "nope" (used by main)',
      'use one of openrouter, openai, anthropic, cloud-hosted, custom: iris model set <provider> <model>',
    ],
  ])('%#: %s', (given, status, finding, fix) => {
    const check = checkCredential(given);
    expect(check).toEqual({ id: `credential:${given.id}`, name: `${given.id} credential`, status, finding, ...(fix ? { fix } : {}) });
  });
});

describe('checkEndpoint and isProbeable', () => {
  it('is silent for a planned endpoint, and names the key to set otherwise', () => {
    expect(checkEndpoint(use())).toBeUndefined();
    const noUrl = use({ id: 'cloud-hosted', provider: 'cloud-hosted', endpoint: { ok: false, message: 'cloud-hosted needs an endpoint URL: set model.base_url (or CLOUD_HOSTED_BASE_URL)' } });
    expect(checkEndpoint(noUrl)).toEqual({
      id: 'endpoint:cloud-hosted',
      name: 'cloud-hosted endpoint',
      status: 'fail',
      finding: 'cloud-hosted needs an endpoint URL: set model.base_url (or CLOUD_HOSTED_BASE_URL)',
      fix: 'iris config set model.base_url <url>',
    });
    expect(isProbeable(noUrl)).toBe(false);
    expect(isProbeable(use({ credential: { kind: 'missing', variable: 'K', optional: false } }))).toBe(false);
    expect(isProbeable(use({ credential: { kind: 'missing', variable: 'K', optional: true } }))).toBe(true);
    expect(isProbeable(use())).toBe(true);
  });

  it.each([
    ['main', 'model.base_url'],
    ['auxiliary.vision', 'auxiliary.vision.base_url'],
    ['fallback_providers[1]', 'fallback_providers.1.base_url'],
    ['auxiliary.vision.fallback_chain[0]', 'auxiliary.vision.fallback_chain.0.base_url'],
  ])('baseUrlKey(%s) is %s', (user, key) => {
    expect(baseUrlKey(user)).toBe(key);
  });
});

describe('checkProbe', () => {
  const url = `${BASE}/models`;

  it('counts the models listed', () => {
    expect(checkProbe(use(), { ok: true, ids: ['a', 'b', 'c'], url })).toEqual({
      id: 'probe:openrouter',
      name: 'openrouter probe',
      status: 'ok',
      finding: `3 models listed at ${url}`,
    });
    expect(checkProbe(use(), { ok: true, ids: ['a'], url }).finding).toBe(`1 model listed at ${url}`);
  });

  it.each([401, 403])('a %i names the key variable to replace', (status) => {
    const check = checkProbe(use(), { ok: false, status, message: `GET ${url} answered ${status}`, url });
    expect(check).toMatchObject({ status: 'fail', finding: `GET ${url} answered ${status}` });
    expect(check.fix).toBe(
      `the provider rejected the key in OPENROUTER_API_KEY (${status}): it may be mistyped, revoked, expired or lack access; ` +
        'set a current one with iris config set OPENROUTER_API_KEY <key>',
    );
  });

  it('a 401 in identity mode gets the identity hint of the spec', () => {
    const identity = use({ authMode: 'identity_token', credential: { kind: 'identity_token', scope: 's' } });
    expect(checkProbe(identity, { ok: false, status: 401, message: `GET ${url} answered 401`, url }).fix).toBe(IDENTITY_401_HINT);
    expect(IDENTITY_401_HINT).toMatch(/expired.*propagated yet \(about 5 minutes.*CLOUD_CLIENT_ID.*model\.identity\.scope is stale \(delete it/);
  });

  it.each([
    [{ ok: false as const, status: 404, message: `GET ${url} answered 404`, url }, `GET ${url} answered 404`, `check the endpoint URL: ${BASE} has no /models (it should be the API's base URL)`],
    [{ ok: false as const, status: 429, message: `GET ${url} answered 429`, url }, `GET ${url} answered 429`, 'the provider is rate limiting: try again in a minute'],
    [{ ok: false as const, status: 503, message: `GET ${url} answered 503`, url }, `GET ${url} answered 503`, 'the provider is failing (503): try again later, or add a fallback in fallback_providers'],
    [{ ok: false as const, status: 200, message: 'the answer is not JSON', url }, `GET ${url}: the answer is not JSON (200)`, `check the endpoint URL (${BASE}) and the credential`],
    [
      { ok: false as const, message: 'no answer within 5000 ms', url },
      `GET ${url}: no answer within 5000 ms`,
      `check that ${BASE} is reachable from this machine (network, HTTPS_PROXY) and that the endpoint URL is right`,
    ],
  ])('%#: other failures say what to look at', (result, finding, fix) => {
    expect(checkProbe(use(), result)).toMatchObject({ status: 'fail', finding, fix });
  });
});
