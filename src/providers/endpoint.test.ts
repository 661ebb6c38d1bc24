import { describe, expect, it } from 'vitest';
import { authHeaders, planEndpoint, type EndpointPlan } from './endpoint.js';
import type { ProviderRoute } from './route.js';

function plan(route: ProviderRoute, env: Record<string, string> = {}, remembered?: 'codex_responses'): EndpointPlan {
  const result = planEndpoint(route, env, remembered ? { rememberedApiMode: remembered } : {});
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

const HOSTED_OPENAI = 'https://res.openai.azure.com/openai/v1';
const KEY = { CLOUD_HOSTED_API_KEY: 'hosted-key-0123456789' };

describe('cloud-hosted, OpenAI-style route', () => {
  it('posts chat completions under the v1 base with the key in api-key', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'my-llama', baseUrl: HOSTED_OPENAI }, KEY);
    expect(p.callUrl).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
    expect(p.modelsUrl).toBe('https://res.openai.azure.com/openai/v1/models');
    expect(p.routeKind).toBe('hosted_openai');
    expect(p.authHeader).toBe('api-key');
    expect(authHeaders(p, 'k')).toEqual({ 'api-key': 'k' });
    expect(p.headers).toEqual({});
    expect(p.maxTokensField).toBe('max_tokens');
  });

  it('moves ?api-version off the base onto every request as a real query parameter', () => {
    const base = 'https://res.openai.azure.com/openai/v1/?api-version=2024-10-21';
    const chat = plan({ provider: 'cloud-hosted', model: 'dep', baseUrl: base }, KEY);
    expect(chat.callUrl).toBe('https://res.openai.azure.com/openai/v1/chat/completions?api-version=2024-10-21');
    expect(chat.modelsUrl).toBe('https://res.openai.azure.com/openai/v1/models?api-version=2024-10-21');
    const responses = plan({ provider: 'cloud-hosted', model: 'gpt-5.1', baseUrl: base }, KEY);
    expect(responses.callUrl).toBe('https://res.openai.azure.com/openai/v1/responses?api-version=2024-10-21');
    for (const url of [chat.callUrl, chat.modelsUrl, responses.callUrl]) expect(url).not.toMatch(/\?api-version=[^/]*\//);
  });

  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-nano'])('sends max_completion_tokens for %s', (model) => {
    const p = plan({ provider: 'cloud-hosted', model, baseUrl: HOSTED_OPENAI, apiMode: 'chat_completions' }, KEY);
    expect(p.apiMode).toBe('chat_completions');
    expect(p.maxTokensField).toBe('max_completion_tokens');
  });

  // On cloud-hosted these run on the Responses API (max_output_tokens); on chat completions
  // elsewhere they take max_completion_tokens too.
  it.each(['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5.1-chat'])('sends max_completion_tokens for %s on openai chat', (model) => {
    const p = plan({ provider: 'openai', model, apiMode: 'chat_completions' }, { OPENAI_API_KEY: 'k' });
    expect(p.maxTokensField).toBe('max_completion_tokens');
  });

  it.each(['gpt-35-turbo', 'Llama-3.3-70B', 'mistral-large', 'phi-4', 'DeepSeek-R1', 'model-o5'])('keeps max_tokens for %s', (model) => {
    expect(plan({ provider: 'cloud-hosted', model, baseUrl: HOSTED_OPENAI }, KEY).maxTokensField).toBe('max_tokens');
  });

  it.each(['gpt-5', 'gpt-5.1', 'gpt-5-mini', 'gpt-5.1-codex', 'codex-mini', 'o1', 'o3', 'o4-mini', 'prod-o3-deployment'])(
    'runs %s as codex_responses without changing the configured mode',
    (model) => {
      const p = plan({ provider: 'cloud-hosted', model, baseUrl: HOSTED_OPENAI, apiMode: 'chat_completions' }, KEY);
      expect(p.configuredApiMode).toBe('chat_completions');
      expect(p.apiMode).toBe('codex_responses');
      expect(p.callUrl).toBe('https://res.openai.azure.com/openai/v1/responses');
      expect(p.notes).toEqual([`${model} is served by the Responses API: using codex_responses (config unchanged)`]);
    },
  );

  it('uses a remembered Responses-only deployment', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'reasoner', baseUrl: HOSTED_OPENAI }, KEY, 'codex_responses');
    expect(p.apiMode).toBe('codex_responses');
  });

  it('never switches the native openai provider on model name alone', () => {
    const p = plan({ provider: 'openai', model: 'gpt-5' }, { OPENAI_API_KEY: 'sk-x' });
    expect(p.apiMode).toBe('chat_completions');
    expect(p.maxTokensField).toBe('max_completion_tokens');
    expect(p.callUrl).toBe('https://api.openai.com/v1/chat/completions');
    expect(p.authHeader).toBe('authorization');
  });

  it('sends an identity token as Bearer', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'dep', baseUrl: HOSTED_OPENAI, authMode: 'identity_token' });
    expect(p.credential).toEqual({ kind: 'identity_token', scope: 'https://ai.azure.com/.default' });
    expect(authHeaders(p, 'jwt')).toEqual({ authorization: 'Bearer jwt' });
  });
});

describe('cloud-hosted, messages route', () => {
  const modern = 'https://res.services.ai.azure.com/anthropic';

  it('detects the messages route from a path ending in /anthropic', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'claude-sonnet-4-5', baseUrl: modern }, KEY);
    expect(p.apiMode).toBe('anthropic_messages');
    expect(p.routeKind).toBe('hosted_messages');
    expect(p.callUrl).toBe('https://res.services.ai.azure.com/anthropic/v1/messages');
    expect(p.headers).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(p.authHeader).toBe('x-api-key');
  });

  it.each([`${modern}/v1`, `${modern}/v1/`, `${modern}/v1/messages`, `${modern}/`])('strips %s to one /v1/messages', (baseUrl) => {
    const p = plan({ provider: 'cloud-hosted', model: 'claude-sonnet-4-5', baseUrl, apiMode: 'anthropic_messages' }, KEY);
    expect(p.callUrl).toBe('https://res.services.ai.azure.com/anthropic/v1/messages');
    expect(p.callUrl).not.toContain('/v1/v1/');
  });

  it('sends no api-version on a modern route, even when the base carried one', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'claude-x', baseUrl: `${modern}?api-version=2025-04-15`, apiMode: 'anthropic_messages' }, KEY);
    expect(p.callUrl).toBe('https://res.services.ai.azure.com/anthropic/v1/messages');
    expect(p.legacyBaseUrl).toBe(true);
  });

  it('keeps api-version=2025-04-15 and Bearer on the legacy compatibility route', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'claude-x', baseUrl: 'https://res.openai.azure.com/anthropic', apiMode: 'anthropic_messages' }, KEY);
    expect(p.routeKind).toBe('legacy_messages');
    expect(p.callUrl).toBe('https://res.openai.azure.com/anthropic/v1/messages?api-version=2025-04-15');
    expect(authHeaders(p, 'static-key')).toEqual({ authorization: 'Bearer static-key' });
  });

  it.each([
    ['claude-opus-4-7', true],
    ['claude-opus-4-6', true],
    ['claude-sonnet-4-6', true],
    ['claude-opus-4.6', true],
    ['claude-sonnet-4-5', false],
    ['claude-haiku-4-5', false],
    ['claude-opus-4-5', false],
  ])('beta header for %s: %s', (model, wanted) => {
    const p = plan({ provider: 'cloud-hosted', model, baseUrl: modern, apiMode: 'anthropic_messages' }, KEY);
    expect(p.headers['anthropic-beta']).toBe(wanted ? 'context-1m-2025-08-07' : undefined);
  });

  it('sends an identity token as Bearer on the messages route too', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'claude-x', baseUrl: modern, authMode: 'identity_token' });
    expect(authHeaders(p, 'jwt')).toEqual({ authorization: 'Bearer jwt' });
  });
});

describe('native anthropic provider', () => {
  it('talks to the native API with x-api-key and no beta header', () => {
    const p = plan({ provider: 'anthropic', model: 'claude-opus-4-7' }, { ANTHROPIC_API_KEY: 'sk-ant-x' });
    expect(p.callUrl).toBe('https://api.anthropic.com/v1/messages');
    expect(p.routeKind).toBe('native');
    expect(p.authHeader).toBe('x-api-key');
    expect(p.headers).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(p.credential).toEqual({ kind: 'api_key', value: 'sk-ant-x', source: 'ANTHROPIC_API_KEY' });
  });

  it.each([
    'https://res.services.ai.azure.com/anthropic',
    'https://res.cognitiveservices.azure.com/anthropic/v1',
    'https://res.services.ai.azure.us/anthropic',
    'https://res.openai.azure.cn/anthropic',
  ])('recognises the hosted endpoint %s and reads CLOUD_MESSAGES_API_KEY', (baseUrl) => {
    const p = plan({ provider: 'anthropic', model: 'claude-opus-4-7', baseUrl }, { CLOUD_MESSAGES_API_KEY: 'hosted', ANTHROPIC_API_KEY: 'native' });
    expect(p.routeKind === 'hosted_messages' || p.routeKind === 'legacy_messages').toBe(true);
    expect(p.credential).toEqual({ kind: 'api_key', value: 'hosted', source: 'CLOUD_MESSAGES_API_KEY' });
    expect(p.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
  });

  it.each([
    'https://azure-anthropic.example.com/anthropic',
    'https://openai.azure.com.evil.example/anthropic',
    'https://xservices.ai.azure.com/anthropic',
    'https://res.services.ai.azure.com/messages',
  ])('treats %s as a plain native endpoint', (baseUrl) => {
    const p = plan({ provider: 'anthropic', model: 'claude-opus-4-7', baseUrl }, { CLOUD_MESSAGES_API_KEY: 'hosted', ANTHROPIC_API_KEY: 'native' });
    expect(p.routeKind).toBe('native');
    expect(p.authHeader).toBe('x-api-key');
    expect(p.credential).toEqual({ kind: 'api_key', value: 'native', source: 'ANTHROPIC_API_KEY' });
    expect(p.headers['anthropic-beta']).toBeUndefined();
  });

  it('uses ANTHROPIC_API_KEY on a hosted endpoint only when ANTHROPIC_BASE_URL names the same endpoint', () => {
    const baseUrl = 'https://res.services.ai.azure.com/anthropic';
    const paired = plan({ provider: 'anthropic', model: 'claude-x', baseUrl }, { ANTHROPIC_API_KEY: 'generic', ANTHROPIC_BASE_URL: `${baseUrl}/` });
    expect(paired.credential).toEqual({ kind: 'api_key', value: 'generic', source: 'ANTHROPIC_API_KEY' });
    const unpaired = plan({ provider: 'anthropic', model: 'claude-x', baseUrl }, { ANTHROPIC_API_KEY: 'generic' });
    expect(unpaired.credential).toEqual({ kind: 'none', missing: 'CLOUD_MESSAGES_API_KEY' });
  });
});

describe('credentials and errors', () => {
  it('lets key_env win over the default variable', () => {
    const p = plan({ provider: 'openrouter', model: 'x/y', keyEnv: 'TEAM_KEY' }, { OPENROUTER_API_KEY: 'default', TEAM_KEY: 'team' });
    expect(p.credential).toEqual({ kind: 'api_key', value: 'team', source: 'TEAM_KEY' });
  });

  it('reports the missing variable', () => {
    expect(plan({ provider: 'openrouter', model: 'x/y' }).credential).toEqual({ kind: 'none', missing: 'OPENROUTER_API_KEY' });
  });

  it('takes the base URL from CLOUD_HOSTED_BASE_URL when config has none', () => {
    const p = plan({ provider: 'cloud-hosted', model: 'dep' }, { ...KEY, CLOUD_HOSTED_BASE_URL: HOSTED_OPENAI });
    expect(p.callUrl).toBe(`${HOSTED_OPENAI}/chat/completions`);
  });

  it.each([
    [{ provider: 'cloud-hosted', model: 'dep' }, 'no_base_url', 'cloud-hosted needs an endpoint URL: set model.base_url (or CLOUD_HOSTED_BASE_URL)'],
    [{ provider: 'custom', model: 'dep' }, 'no_base_url', 'custom needs an endpoint URL: set model.base_url'],
    [{ provider: 'nope', model: 'm' }, 'unknown_provider', 'unknown provider "nope"'],
    [{ provider: 'custom', model: 'm', baseUrl: 'ftp://x' }, 'bad_base_url', 'custom: "ftp://x" is not an http(s) URL'],
  ] as const)('fails %j as %s', (route, code, message) => {
    expect(planEndpoint(route, {})).toEqual({ ok: false, error: { code, message } });
  });
});
