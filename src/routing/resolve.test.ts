import { describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validate.js';
import { mainRoute, resolveCandidates } from './resolve.js';

const cfg = (raw: Record<string, unknown>) => validateConfig(raw).config;
const KEYS = { OPENROUTER_API_KEY: 'a', OPENAI_API_KEY: 'b', ANTHROPIC_API_KEY: 'c' };
const brief = (raw: Record<string, unknown>, slot: Parameters<typeof resolveCandidates>[2], env: Record<string, string> = KEYS) =>
  resolveCandidates(cfg(raw), env, slot).candidates.map((c) => [c.reason, `${c.provider} · ${c.model}`, c.unusable?.message ?? '']);

describe('mainRoute', () => {
  it('reads model.default, else model.model (older pickers)', () => {
    expect(mainRoute(cfg({ model: { provider: 'openai', default: 'gpt-5.1' } }))).toEqual({ provider: 'openai', model: 'gpt-5.1' });
    expect(mainRoute(cfg({ model: { provider: 'openai', model: 'gpt-4.1' } }))).toEqual({ provider: 'openai', model: 'gpt-4.1' });
    expect(mainRoute(cfg({ model: '' }))).toBeUndefined();
  });

  it('resolves aliases, and keeps aggregator ids with a slash on the configured provider', () => {
    expect(mainRoute(cfg({ model: { provider: 'openrouter', default: 'fast' }, model_aliases: { fast: { provider: 'openai', model: 'gpt-5-mini', base_url: 'https://proxy/v1' } } }))).toEqual({
      provider: 'openai',
      model: 'gpt-5-mini',
      baseUrl: 'https://proxy/v1',
    });
    expect(mainRoute(cfg({ model: { provider: 'openrouter', default: 'anthropic/claude-sonnet-4.5' } }))).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
    });
    expect(mainRoute(cfg({ model: { provider: 'openrouter', default: 'SONNET' } }))).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
  });

  it('carries the cloud-hosted settings of the main model', () => {
    const route = mainRoute(cfg({
      model: { provider: 'cloud-hosted', default: 'dep', base_url: 'https://r.openai.azure.com/openai/v1', api_mode: 'chat_completions', auth_mode: 'identity_token', identity: { scope: 'api://x/.default' }, key_env: 'K' },
    }));
    expect(route).toEqual({
      provider: 'cloud-hosted',
      model: 'dep',
      baseUrl: 'https://r.openai.azure.com/openai/v1',
      apiMode: 'chat_completions',
      keyEnv: 'K',
      authMode: 'identity_token',
      identityScope: 'api://x/.default',
    });
  });
});

describe('resolveCandidates', () => {
  it('orders own route, task chain, fallback_providers, fallback_model, then discovery, without repeats', () => {
    const raw = {
      model: { provider: 'openai', default: 'gpt-5.1' },
      auxiliary: { vision: { provider: 'anthropic', model: 'claude-haiku-4-5', fallback_chain: [{ provider: 'openai', model: 'gpt-4.1' }] } },
      fallback_providers: [{ provider: 'openai', model: 'gpt-4.1' }, { provider: 'openrouter', model: 'google/gemini-2.5-flash' }],
      fallback_model: 'anthropic/claude-opus-4-5',
    };
    expect(brief(raw, 'vision')).toEqual([
      ['task', 'anthropic · claude-haiku-4-5', ''],
      ['task_fallback_chain', 'openai · gpt-4.1', ''],
      ['fallback_providers', 'openrouter · google/gemini-2.5-flash', ''],
      ['fallback_model', 'anthropic · claude-opus-4-5', ''],
      ['discovery', 'openrouter · anthropic/claude-sonnet-4.5', ''],
      ['discovery', 'openai · gpt-5.1', ''],
      ['discovery', 'anthropic · claude-sonnet-4-5', ''],
    ]);
  });

  it('gives an auto slot the main model, with the slot timeout', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'openai', default: 'gpt-5.1' } }), KEYS, 'curator');
    expect(resolution.candidates[0]).toMatchObject({ reason: 'auto', provider: 'openai', model: 'gpt-5.1', timeoutMs: 600_000 });
  });

  it('puts the aggregator default behind a first route without credential, and warns', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'openai', default: 'gpt-5.1' } }), { OPENROUTER_API_KEY: 'a' }, 'main');
    expect(resolution.candidates.map((c) => [c.reason, c.provider, c.unusable ?? null])).toEqual([
      ['main', 'openai', { code: 'no_credential', message: 'no credential (set OPENAI_API_KEY)', missing: 'OPENAI_API_KEY' }],
      ['aggregator_default', 'openrouter', null],
    ]);
    expect(resolution.warnings).toEqual([
      {
        slot: 'main',
        code: 'no_credential',
        missing: 'OPENAI_API_KEY',
        message: 'main: openai · gpt-5.1 has no credential (set OPENAI_API_KEY); using the aggregator default openrouter · anthropic/claude-sonnet-4.5',
      },
    ]);
  });

  it('warns when no main model is configured, and still offers discovery', () => {
    const resolution = resolveCandidates(cfg({}), { ANTHROPIC_API_KEY: 'c' }, 'title_generation');
    expect(resolution.warnings.map((w) => w.message)).toEqual([
      "title_generation: no main model is configured (model: ''); run iris setup (or iris model set <provider> <model>)",
    ]);
    expect(resolution.candidates.map((c) => [c.provider, c.unusable ?? null])).toEqual([
      ['openrouter', { code: 'no_credential', message: 'no credential (set OPENROUTER_API_KEY)', missing: 'OPENROUTER_API_KEY' }],
      ['anthropic', null],
    ]);
  });

  it('uses the provider default model when an aux slot names only a provider', () => {
    expect(brief({ model: { provider: 'openai', default: 'gpt-5.1' }, auxiliary: { mcp: { provider: 'anthropic' } } }, 'mcp')[0]).toEqual([
      'task',
      'anthropic · claude-sonnet-4-5',
      '',
    ]);
  });

  it('uses the main provider for an aux slot with provider auto and a model', () => {
    expect(brief({ model: { provider: 'openai', default: 'gpt-5.1' }, auxiliary: { mcp: { model: 'gpt-5-mini' } } }, 'mcp')[0]).toEqual([
      'task',
      'openai · gpt-5-mini',
      '',
    ]);
  });

  it('passes the aux slot api_key, base_url and extra_body', () => {
    const resolution = resolveCandidates(
      cfg({ model: { provider: 'openai', default: 'x' }, auxiliary: { vision: { provider: 'custom', model: 'llava', base_url: 'http://localhost:8080/v1', api_key: 'local', extra_body: { top_k: 3 } } } }),
      {},
      'vision',
    );
    expect(resolution.candidates[0]).toMatchObject({ provider: 'custom', model: 'llava', baseUrl: 'http://localhost:8080/v1', apiKey: 'local', extraBody: { top_k: 3 }, timeoutMs: 120_000 });
    expect(resolution.candidates[0]?.unusable).toBeUndefined();
  });
});

describe('resolveCandidates edge cases', () => {
  it('does not promise an aggregator default that has no credential either', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'openrouter', default: 'google/gemini-2.5-pro' } }), {}, 'main');
    expect(resolution.warnings.map((w) => w.message)).toEqual([
      'main: openrouter · google/gemini-2.5-pro has no credential (set OPENROUTER_API_KEY); the aggregator default openrouter · anthropic/claude-sonnet-4.5 has no credential (set OPENROUTER_API_KEY) too: trying the fallback chain and discovery',
    ]);
  });

  it('warns about an aux slot with a provider but no model and no default model', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'openai', default: 'gpt-5.1' }, auxiliary: { compression: { provider: 'cloud-hosted' } } }), KEYS, 'compression');
    expect(resolution.warnings).toEqual([
      {
        slot: 'compression',
        code: 'no_model',
        message: 'compression: auxiliary.compression names cloud-hosted but no model, and cloud-hosted has no default model; set auxiliary.compression.model',
      },
    ]);
  });

  it('names an unknown provider as such, and leaves missing out of the warning when it is not a credential', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'nope', default: 'm' } }), { OPENROUTER_API_KEY: 'a' }, 'main');
    expect(resolution.candidates[0]?.unusable).toEqual({ code: 'unknown_provider', message: 'unknown provider "nope"' });
    expect(resolution.warnings).toEqual([
      { slot: 'main', code: 'no_credential', message: 'main: nope · m has unknown provider "nope"; using the aggregator default openrouter · anthropic/claude-sonnet-4.5' },
    ]);
  });

  it('marks cloud-hosted without an endpoint URL unusable, even with a key', () => {
    const resolution = resolveCandidates(cfg({ model: { provider: 'cloud-hosted', default: 'dep' } }), { CLOUD_HOSTED_API_KEY: 'k', OPENROUTER_API_KEY: 'a' }, 'main');
    expect(resolution.candidates[0]).toMatchObject({ provider: 'cloud-hosted', unusable: { code: 'no_endpoint', message: 'no endpoint URL (set base_url or CLOUD_HOSTED_BASE_URL)' } });
    expect(resolution.candidates[1]).toMatchObject({ provider: 'openrouter', reason: 'aggregator_default' });
  });
});
