// The cloud-hosted rules on the wire: real hostnames (resolved to the loopback fake by the test's
// dispatcher), real requests, and assertions on exactly what the fake received.
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../test/fakes/upstream.js';
import {
  createApiModeMemory,
  createIdentityRegistry,
  streamFromProvider,
  type ProviderClientDeps,
  type RefreshableTokenProvider,
} from './provider-client.js';
import type { ProviderRoute } from './route.js';
import { collectStream } from './wire/model-client.js';
import type { ModelRequest } from './wire/types.js';

let fake: FakeUpstream;
let port: string;
// Every hostname resolves to the fake, so URLs keep the hosted names the rules look at.
const loopback = new Agent({
  connect: {
    lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
  },
});

beforeAll(async () => {
  fake = await startFakeUpstream();
  port = new URL(fake.url).port;
});
afterAll(async () => {
  await fake.close();
  await loopback.close();
});
beforeEach(() => fake.reset());

const TIMEOUTS = { connectMs: 2000, firstByteMs: 2000, idleMs: 2000 };
const request: ModelRequest = { model: 'ignored', messages: [{ role: 'user', content: 'hi' }], maxOutputTokens: 64 };

function deps(env: Record<string, string>, extra: Partial<ProviderClientDeps> = {}): ProviderClientDeps {
  return { env, apiModeMemory: createApiModeMemory(), timeouts: TIMEOUTS, dispatcher: loopback, ...extra };
}

async function run(route: ProviderRoute, d: ProviderClientDeps) {
  return collectStream(streamFromProvider(route, { ...request, model: route.model }, d));
}

const hosted = (host: string, path: string) => `http://${host}:${port}${path}`;
const KEY = { CLOUD_HOSTED_API_KEY: 'static-hosted-key-123' };

describe('cloud-hosted OpenAI-style route on the wire', () => {
  it('sends the static key in api-key, never as Bearer, and max_completion_tokens for gpt-4o', async () => {
    const route = { provider: 'cloud-hosted', model: 'gpt-4o', baseUrl: hosted('res.openai.azure.com', '/openai/v1') };
    expect(await run(route, deps(KEY))).toMatchObject({ ok: true, text: 'ok' });
    const sent = fake.requests[0];
    expect(sent?.url).toBe('/openai/v1/chat/completions');
    expect(sent?.headers['api-key']).toBe('static-hosted-key-123');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers.host).toBe(`res.openai.azure.com:${port}`);
    expect(sent?.body).toMatchObject({ model: 'gpt-4o', max_completion_tokens: 64 });
    expect(sent?.body).not.toHaveProperty('max_tokens');
  });

  it('forwards the base URL api-version as a query parameter on chat and responses', async () => {
    const base = hosted('res.openai.azure.com', '/openai/v1?api-version=2024-10-21');
    await run({ provider: 'cloud-hosted', model: 'llama-3', baseUrl: base }, deps(KEY));
    await run({ provider: 'cloud-hosted', model: 'gpt-5.1', baseUrl: base }, deps(KEY));
    expect(fake.requests.map((r) => r.url)).toEqual([
      '/openai/v1/chat/completions?api-version=2024-10-21',
      '/openai/v1/responses?api-version=2024-10-21',
    ]);
  });

  it('runs a gpt-5 deployment configured for chat completions on the Responses API', async () => {
    const route = { provider: 'cloud-hosted', model: 'gpt-5.1', baseUrl: hosted('res.openai.azure.com', '/openai/v1'), apiMode: 'chat_completions' as const };
    expect(await run(route, deps(KEY))).toMatchObject({ ok: true });
    expect(fake.requests[0]?.url).toBe('/openai/v1/responses');
    expect(fake.requests[0]?.body).toMatchObject({ model: 'gpt-5.1', max_output_tokens: 64 });
  });

  it('retries an OperationNotSupported deployment once on the Responses API and remembers it', async () => {
    fake.script('reasoner', { kind: 'unsupported' }, { kind: 'text', deltas: ['via responses'] });
    const d = deps(KEY);
    const route = { provider: 'cloud-hosted', model: 'reasoner', baseUrl: hosted('res.openai.azure.com', '/openai/v1') };
    expect(await run(route, d)).toMatchObject({ ok: true, text: 'via responses' });
    expect(await run(route, d)).toMatchObject({ ok: true });
    expect(fake.requests.map((r) => r.path)).toEqual(['/openai/v1/chat/completions', '/openai/v1/responses', '/openai/v1/responses']);
  });

  it('gives a 404 DeploymentNotFound the deployment hint', async () => {
    fake.script('missing-dep', { kind: 'deployment_not_found' });
    const result = await run({ provider: 'cloud-hosted', model: 'missing-dep', baseUrl: hosted('res.openai.azure.com', '/openai/v1') }, deps(KEY));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error.hint).toBe(
      `no deployment named "missing-dep" at http://res.openai.azure.com:${port}/openai/v1: model.default must be the deployment name as listed in the resource's deployments (names are case-sensitive)`,
    );
  });
});

describe('messages routes on the wire', () => {
  it('strips a pasted /v1/messages, sends x-api-key and the 1M beta on a modern hosted route', async () => {
    const route = {
      provider: 'cloud-hosted',
      model: 'claude-opus-4-7',
      baseUrl: hosted('res.services.ai.azure.com', '/anthropic/v1/messages'),
      apiMode: 'anthropic_messages' as const,
    };
    expect(await run(route, deps(KEY))).toMatchObject({ ok: true });
    const sent = fake.requests[0];
    expect(sent?.url).toBe('/anthropic/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('static-hosted-key-123');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
  });

  it('keeps Bearer and api-version=2025-04-15 on the legacy compatibility route', async () => {
    const route = { provider: 'cloud-hosted', model: 'claude-sonnet-4-5', baseUrl: hosted('res.openai.azure.com', '/anthropic') };
    await run(route, deps(KEY));
    expect(fake.requests[0]?.url).toBe('/anthropic/v1/messages?api-version=2025-04-15');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer static-hosted-key-123');
    expect(fake.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('gives a 404 from an old base URL the doubled-version hint', async () => {
    fake.script('claude-x', { kind: 'error', status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } } });
    const route = { provider: 'cloud-hosted', model: 'claude-x', baseUrl: hosted('res.services.ai.azure.com', '/anthropic/v1?api-version=2025-04-15'), apiMode: 'anthropic_messages' as const };
    const result = await run(route, deps(KEY));
    expect(fake.requests[0]?.url).toBe('/anthropic/v1/messages');
    expect(result.ok ? '' : result.error.hint).toBe(
      'an old base URL (with a query string or a trailing /v1) makes a malformed messages URL: remove the query string and /v1 from model.base_url',
    );
  });

  it('treats the native provider on a look-alike host as native: ANTHROPIC_API_KEY in x-api-key, no beta', async () => {
    const route = { provider: 'anthropic', model: 'claude-opus-4-7', baseUrl: hosted('anthropic-azure.example.com', '/anthropic') };
    await run(route, deps({ ANTHROPIC_API_KEY: 'native-key', CLOUD_MESSAGES_API_KEY: 'hosted-key' }));
    expect(fake.requests[0]?.headers['x-api-key']).toBe('native-key');
    expect(fake.requests[0]?.headers['anthropic-beta']).toBeUndefined();
  });

  it('sends CLOUD_MESSAGES_API_KEY for the native provider on a trusted hosted endpoint', async () => {
    const route = { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: hosted('res.services.ai.azure.com', '/anthropic') };
    await run(route, deps({ ANTHROPIC_API_KEY: 'native-key', CLOUD_MESSAGES_API_KEY: 'hosted-key' }));
    expect(fake.requests[0]?.headers['x-api-key']).toBe('hosted-key');
    expect(fake.requests[0]?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
  });
});

describe('identity tokens', () => {
  function tokenSource(tokens: string[]): RefreshableTokenProvider & { calls: number; invalidations: number } {
    let index = 0;
    const source = {
      calls: 0,
      invalidations: 0,
      async getToken() {
        source.calls++;
        return { ok: true as const, token: tokens[Math.min(index, tokens.length - 1)] as string, expiresOnMs: Date.now() + 3_600_000, source: 'environment' as const };
      },
      invalidate() {
        source.invalidations++;
        index++;
      },
    };
    return source;
  }

  it('sends the token as Bearer on both wire formats', async () => {
    const source = tokenSource(['jwt-1']);
    const d = deps({}, { identityFor: () => source });
    await run({ provider: 'cloud-hosted', model: 'dep', baseUrl: hosted('res.openai.azure.com', '/openai/v1'), authMode: 'identity_token' }, d);
    await run({ provider: 'cloud-hosted', model: 'claude-x', baseUrl: hosted('res.services.ai.azure.com', '/anthropic'), authMode: 'identity_token' }, d);
    expect(fake.requests.map((r) => [r.headers.authorization, r.headers['api-key'], r.headers['x-api-key']])).toEqual([
      ['Bearer jwt-1', undefined, undefined],
      ['Bearer jwt-1', undefined, undefined],
    ]);
    expect(source.calls).toBe(2);
  });

  it('refreshes once on 401, then fails with the identity hint', async () => {
    fake.script('dep', { kind: 'unauthorized' });
    const source = tokenSource(['jwt-old', 'jwt-new']);
    const result = await run(
      { provider: 'cloud-hosted', model: 'dep', baseUrl: hosted('res.openai.azure.com', '/openai/v1'), authMode: 'identity_token' },
      deps({}, { identityFor: () => source }),
    );
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(['Bearer jwt-old', 'Bearer jwt-new']);
    expect(source.invalidations).toBe(1);
    expect(result.ok ? '' : result.error.code).toBe('auth');
    expect(result.ok ? '' : result.error.hint).toMatch(/^the identity token was rejected: the login may have expired/);
  });
});

describe('configuration failures', () => {
  it('sends nothing without a key and names the variable', async () => {
    const result = await run({ provider: 'openrouter', model: 'x/y' }, deps({}));
    expect(result).toEqual({
      ok: false,
      error: { code: 'not_configured', message: 'openrouter: no API key (set OPENROUTER_API_KEY)', afterOutput: false },
      partialText: '',
    });
    expect(fake.requests).toEqual([]);
  });

  it('calls a custom endpoint without a key', async () => {
    const result = await run({ provider: 'custom', model: 'local', baseUrl: `${fake.url}/v1` }, deps({}));
    expect(result).toMatchObject({ ok: true, text: 'ok' });
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('identity mode end to end', () => {
  it('gets a managed-identity token from the chain and sends it as Bearer, once per cached token', async () => {
    const { startTokenEndpoint, APP_PLATFORM_PATH } = await import('../../test/fakes/token-endpoint.js');
    const tokens = await startTokenEndpoint({ identityHeader: 'hdr-secret-value' });
    try {
      const env = { IDENTITY_ENDPOINT: `${tokens.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER: 'hdr-secret-value', PATH: '/nonexistent' };
      const d = deps(env, { identityFor: createIdentityRegistry(env) });
      const route = { provider: 'cloud-hosted', model: 'dep', baseUrl: hosted('res.openai.azure.com', '/openai/v1'), authMode: 'identity_token' as const };
      expect(await run(route, d)).toMatchObject({ ok: true });
      expect(await run(route, d)).toMatchObject({ ok: true });
      const issued = tokens.issued.map((t) => t.token);
      expect(issued).toHaveLength(1);
      expect(fake.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${issued[0]}`, `Bearer ${issued[0]}`]);
      expect(tokens.requests.map((r) => [r.path, r.query.resource, r.headers['x-identity-header']])).toEqual([
        [APP_PLATFORM_PATH, 'https://ai.azure.com', 'hdr-secret-value'],
      ]);
    } finally {
      await tokens.close();
    }
  });

  it('shares one source per scope and client id', () => {
    const made: string[] = [];
    const registry = createIdentityRegistry({}, (options) => {
      made.push(`${options.scope ?? 'default'}|${options.clientId ?? ''}`);
      return { getToken: async () => ({ ok: false, error: { code: 'no_credential', message: 'x', attempts: [] } }) };
    });
    const a = registry({ provider: 'cloud-hosted', model: 'm' });
    expect(registry({ provider: 'cloud-hosted', model: 'other' })).toBe(a);
    registry({ provider: 'cloud-hosted', model: 'm', identityClientId: 'abc' });
    expect(made).toEqual(['default|', 'default|abc']);
  });
});

describe('listing models', () => {
  it('sends the api-version query and the api-key header to /models', async () => {
    const { listModels } = await import('./list-models.js');
    fake.setModels(['dep-a', 'dep-b']);
    const result = await listModels(
      { provider: 'cloud-hosted', model: '', baseUrl: hosted('res.openai.azure.com', '/openai/v1?api-version=2024-10-21') },
      { env: KEY, dispatcher: loopback },
    );
    expect(result).toEqual({ ok: true, ids: ['dep-a', 'dep-b'], url: hosted('res.openai.azure.com', '/openai/v1/models?api-version=2024-10-21') });
    expect(fake.requests.map((r) => [r.method, r.url, r.headers['api-key'], r.headers.authorization])).toEqual([
      ['GET', '/openai/v1/models?api-version=2024-10-21', 'static-hosted-key-123', undefined],
    ]);
  });

  it('reports a non-list answer', async () => {
    const { parseModelList } = await import('./list-models.js');
    expect(parseModelList({ data: [{ id: 'a' }, { id: 'b' }] })).toEqual(['a', 'b']);
    expect(parseModelList({ data: [{ name: 'a' }] })).toBeUndefined();
    expect(parseModelList([])).toBeUndefined();
  });
});
