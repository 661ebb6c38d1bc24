// `iris setup` probes with the credential the saved config will use, and detects the wire format
// of a custom endpoint too: bin/iris against the fake upstream (what each probe sent) and the fake
// token endpoint (the identity the preflight and the probes share).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APP_PLATFORM_PATH, startTokenEndpoint, type FakeTokenEndpoint } from '../fakes/token-endpoint.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIrisWithInput, type RunResult } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  fake.setModels([]);
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const setup = (args: string[], env: Record<string, string> = {}): Promise<RunResult> => runIrisWithInput(['setup', ...args], '', { home, env });
const configModel = async () => (parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown> }).model;
const envFile = () => readFile(join(home, '.env'), 'utf8').catch(() => '');
const wire = () => fake.requests.map((r) => ({ method: r.method, url: r.url, authorization: r.headers.authorization, apiKey: r.headers['api-key'], xApiKey: r.headers['x-api-key'] }));

/** An endpoint with no /models that answers the messages probe the way a messages API does. */
async function messagesOnlyServer(): Promise<{ url: string; seen: Array<{ method: string; url: string }>; close: () => void }> {
  const seen: Array<{ method: string; url: string }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '' });
    const body = req.method === 'POST' && req.url === '/v1/messages' ? { type: 'error', error: { type: 'not_found_error', message: 'model: iris-probe' } } : { error: 'no such route' };
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

describe('custom: api_mode is detected and written', () => {
  it('an OpenAI-shaped GET <base>/models → api_mode chat_completions, with all four first-run keys', async () => {
    fake.setModels(['llama-3.3-70b']);
    const result = await setup(['--provider', 'custom', '--base-url', `${fake.url}/v1`, '--model', 'llama-3.3-70b', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`probe models ${fake.url}/v1/models: 1 models`);
    expect(wire()).toEqual([{ method: 'GET', url: '/v1/models', authorization: undefined, apiKey: undefined, xApiKey: undefined }]);
    expect(await configModel()).toEqual({ provider: 'custom', default: 'llama-3.3-70b', base_url: `${fake.url}/v1`, api_mode: 'chat_completions', context_length: 128000 });
  });

  it('no /models but a messages-shaped answer → api_mode anthropic_messages (the cloud-hosted sequence)', async () => {
    const server = await messagesOnlyServer();
    try {
      const result = await setup(['--provider', 'custom', '--base-url', server.url, '--model', 'claude-local', '--yes']);
      expect(result.code).toBe(0);
      // A custom server gets no cloud-hosted api-version retries: one GET, then the messages probe.
      expect(server.seen).toEqual([
        { method: 'GET', url: '/models' },
        { method: 'POST', url: '/v1/messages' },
      ]);
      expect(await configModel()).toEqual({ provider: 'custom', default: 'claude-local', base_url: server.url, api_mode: 'anthropic_messages', context_length: 200000 });
    } finally {
      server.close();
    }
  });

  it('--api-mode wins: no probe is sent', async () => {
    const result = await setup(['--provider', 'custom', '--base-url', `${fake.url}/v1`, '--api-mode', 'codex_responses', '--model', 'local-codex', '--yes']);
    expect(result.code).toBe(0);
    expect(fake.requests).toEqual([]);
    expect(await configModel()).toEqual({ provider: 'custom', default: 'local-codex', base_url: `${fake.url}/v1`, api_mode: 'codex_responses', context_length: 128000 });
  });
});

describe('--api-key-env: the probes send the key from that variable', () => {
  const KEY = 'my-hosted-key-0123456789abcdef';

  it('cloud-hosted: GET /models carries $MY_HOSTED_KEY in api-key', async () => {
    fake.setModels(['gpt-4o-prod']);
    const result = await setup(['--provider', 'cloud-hosted', '--base-url', `${fake.url}/openai/v1`, '--api-key-env', 'MY_HOSTED_KEY', '--yes'], { MY_HOSTED_KEY: KEY });
    expect(result.code).toBe(0);
    expect(wire()).toEqual([{ method: 'GET', url: '/openai/v1/models', authorization: undefined, apiKey: KEY, xApiKey: undefined }]);
    expect(await configModel()).toEqual({ provider: 'cloud-hosted', default: 'gpt-4o-prod', base_url: `${fake.url}/openai/v1`, api_mode: 'chat_completions', key_env: 'MY_HOSTED_KEY', context_length: 128000 });
    expect(await envFile()).toBe('');
  });

  it('custom: GET /models carries $LLAMA_KEY as a bearer token', async () => {
    fake.setModels(['llama-3.3-70b']);
    const result = await setup(['--provider', 'custom', '--base-url', `${fake.url}/v1`, '--api-key-env', 'LLAMA_KEY', '--model', 'llama-3.3-70b', '--yes'], { LLAMA_KEY: KEY });
    expect(result.code).toBe(0);
    expect(wire()).toEqual([{ method: 'GET', url: '/v1/models', authorization: `Bearer ${KEY}`, apiKey: undefined, xApiKey: undefined }]);
    expect(await configModel()).toEqual({ provider: 'custom', default: 'llama-3.3-70b', base_url: `${fake.url}/v1`, api_mode: 'chat_completions', key_env: 'LLAMA_KEY', context_length: 128000 });
  });
});

describe('identity mode: the probes carry the preflight token', () => {
  let tokens: FakeTokenEndpoint;
  beforeAll(async () => {
    tokens = await startTokenEndpoint({ identityHeader: 'the-header', userAssignedClientIds: ['uami-client-1'] });
  });
  afterAll(() => tokens.close());

  it('one chain, one token: GET /models with Authorization: Bearer <the managed identity token>', async () => {
    fake.setModels(['gpt-4o-prod']);
    const result = await setup(
      ['--provider', 'cloud-hosted', '--auth-mode', 'identity_token', '--base-url', `${fake.url}/openai/v1`, '--client-id', 'uami-client-1', '--tenant-id', '', '--yes'],
      { IDENTITY_ENDPOINT: `${tokens.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER: 'the-header' },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('identity token: ok (from managed_identity)');
    expect(result.stdout).toContain(`probe models ${fake.url}/openai/v1/models: 1 models`);
    // The preflight's token, fetched once for the user-assigned identity given by --client-id.
    expect(tokens.issued.map((t) => ({ endpoint: t.endpoint, clientId: t.clientId }))).toEqual([{ endpoint: 'app_platform', clientId: 'uami-client-1' }]);
    expect(wire()).toEqual([{ method: 'GET', url: '/openai/v1/models', authorization: `Bearer ${tokens.issued[0]!.token}`, apiKey: undefined, xApiKey: undefined }]);
    expect(await configModel()).toEqual({ provider: 'cloud-hosted', default: 'gpt-4o-prod', base_url: `${fake.url}/openai/v1`, api_mode: 'chat_completions', auth_mode: 'identity_token', context_length: 128000 });
    expect(await envFile()).toBe('CLOUD_CLIENT_ID=uami-client-1\n');
  });
});
