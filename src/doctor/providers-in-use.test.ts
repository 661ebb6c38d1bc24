import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { findProvidersInUse, keySourceText } from './providers-in-use.js';

const OR_KEY = 'sk-or-v1-secret-value-0123';

function uses(raw: unknown, env: Record<string, string> = {}, processEnv: Record<string, string> = {}) {
  return findProvidersInUse(validateConfig(raw).config, { ...env, ...processEnv }, processEnv);
}

describe('findProvidersInUse', () => {
  it('is empty on a fresh install (discovery and the aggregator stand-in are not "in use")', () => {
    expect(uses({})).toEqual([]);
  });

  it('lists main, then aux slots with their own provider, then fallbacks, each once', () => {
    const found = uses(
      {
        model: { provider: 'openrouter', default: 'google/gemini-2.5-pro' },
        auxiliary: {
          vision: { provider: 'anthropic', model: 'claude-haiku-4-5', fallback_chain: [{ provider: 'openai', model: 'gpt-4o' }] },
          compression: { provider: 'openrouter', model: 'google/gemini-2.5-flash' },
        },
        fallback_providers: [{ provider: 'openai', model: 'gpt-5-mini' }],
      },
      { OPENROUTER_API_KEY: OR_KEY },
      { OPENAI_API_KEY: 'sk-openai-secret-0123' },
    );
    expect(found.map((u) => [u.id, u.usedBy, u.credential, u.endpoint.ok && u.endpoint.baseUrl])).toEqual([
      ['openrouter', ['main', 'auxiliary.compression'], { kind: 'api_key', variable: 'OPENROUTER_API_KEY', origin: '.env' }, 'https://openrouter.ai/api/v1'],
      ['anthropic', ['auxiliary.vision'], { kind: 'missing', variable: 'ANTHROPIC_API_KEY', optional: false }, 'https://api.anthropic.com'],
      [
        'openai',
        ['fallback_providers[0]', 'auxiliary.vision.fallback_chain[0]'],
        { kind: 'api_key', variable: 'OPENAI_API_KEY', origin: 'environment' },
        'https://api.openai.com/v1',
      ],
    ]);
    expect(JSON.stringify(found)).not.toContain(OR_KEY);
  });

  it('keeps one provider apart when endpoint or key differ, and ids tell them apart', () => {
    const found = uses(
      {
        model: { provider: 'openrouter', default: 'x/y' },
        auxiliary: { vision: { provider: 'openrouter', model: 'x/z', key_env: 'VISION_KEY' } },
      },
      { OPENROUTER_API_KEY: OR_KEY, VISION_KEY: 'sk-vision-0123456789' },
    );
    expect(found.map((u) => [u.id, u.credential])).toEqual([
      ['openrouter@main', { kind: 'api_key', variable: 'OPENROUTER_API_KEY', origin: '.env' }],
      ['openrouter@auxiliary.vision', { kind: 'api_key', variable: 'VISION_KEY', origin: '.env' }],
    ]);
  });

  it("names an aux slot's own api_key by its config key", () => {
    const found = uses({ model: { provider: 'openai', default: 'gpt-5' }, auxiliary: { vision: { provider: 'anthropic', model: 'claude-haiku-4-5', api_key: 'sk-ant-in-config-0123' } } }, { OPENAI_API_KEY: 'k' });
    expect(found[1]?.credential).toEqual({ kind: 'api_key', variable: 'auxiliary.vision.api_key', origin: 'config.yaml' });
  });

  it('identity mode on cloud-hosted: the scope, default or configured; no key', () => {
    const hosted = { provider: 'cloud-hosted', default: 'gpt-4o', base_url: 'https://r.openai.azure.com/openai/v1', auth_mode: 'identity_token' };
    expect(uses({ model: hosted })[0]).toMatchObject({
      authMode: 'identity_token',
      credential: { kind: 'identity_token', scope: 'https://ai.azure.com/.default' },
      endpoint: { ok: true, baseUrl: 'https://r.openai.azure.com/openai/v1' },
    });
    expect(uses({ model: { ...hosted, identity: { scope: 'api://custom/.default' } } })[0]?.credential).toEqual({
      kind: 'identity_token',
      scope: 'api://custom/.default',
    });
  });

  it('reports an endpoint that cannot be planned, and a custom endpoint that needs no key', () => {
    expect(uses({ model: { provider: 'cloud-hosted', default: 'gpt-4o' } })[0]?.endpoint).toEqual({
      ok: false,
      message: 'cloud-hosted needs an endpoint URL: set model.base_url (or CLOUD_HOSTED_BASE_URL)',
    });
    expect(uses({ model: { provider: 'custom', default: 'llama', base_url: 'http://10.0.0.5:8000/v1' } })[0]?.credential).toEqual({ kind: 'none' });
    expect(uses({ model: { provider: 'custom', default: 'llama', base_url: 'http://10.0.0.5:8000/v1', key_env: 'LLAMA_KEY' } })[0]?.credential).toEqual({
      kind: 'missing',
      variable: 'LLAMA_KEY',
      optional: true,
    });
  });
});

describe('keySourceText', () => {
  it.each([
    [{ kind: 'api_key', variable: 'OPENROUTER_API_KEY', origin: '.env' }, 'OPENROUTER_API_KEY (from .env)'],
    [{ kind: 'api_key', variable: 'OPENROUTER_API_KEY', origin: 'environment' }, 'OPENROUTER_API_KEY (from the environment)'],
    [{ kind: 'api_key', variable: 'auxiliary.vision.api_key', origin: 'config.yaml' }, 'auxiliary.vision.api_key (from config.yaml)'],
    [{ kind: 'missing', variable: 'ANTHROPIC_API_KEY', optional: false }, 'ANTHROPIC_API_KEY (missing)'],
    [{ kind: 'none' }, 'none (not needed)'],
    [{ kind: 'identity_token', scope: 's' }, 'none (identity token)'],
  ] as const)('%j', (credential, text) => {
    expect(keySourceText(credential)).toBe(text);
  });
});
