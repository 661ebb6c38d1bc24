// The probe sequence against real HTTP servers on loopback, one per kind of endpoint: each probe's
// request (path, query, credential header) is asserted, and each outcome.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAnthropicPath, looksLikeMessagesAnswer, modelsProbeBases, probeEndpoint } from './probe.js';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
let server: Server | undefined;
let seen: Seen[] = [];

async function serve(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const env = { CLOUD_HOSTED_API_KEY: 'hosted-key-0123456789' };
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('isAnthropicPath', () => {
  it.each([
    ['https://r.services.ai.azure.com/anthropic', true],
    ['https://r.services.ai.azure.com/anthropic/', true],
    ['https://r.services.ai.azure.com/anthropic/v1', true],
    ['https://r.services.ai.azure.com/anthropic/v1/messages', true],
    ['https://r.openai.azure.com/openai/v1', false],
    ['https://example.com/anthropic-proxy', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isAnthropicPath(url)).toBe(expected);
  });
});

describe('looksLikeMessagesAnswer', () => {
  it('knows a message, its stream and its typed error; nothing else', () => {
    expect(looksLikeMessagesAnswer('application/json', '{"type":"error","error":{"type":"not_found_error","message":"model"}}')).toBe(true);
    expect(looksLikeMessagesAnswer('application/json', '{"type":"message","content":[]}')).toBe(true);
    expect(looksLikeMessagesAnswer('text/event-stream', 'event: message_start\ndata: {}\n\n')).toBe(true);
    expect(looksLikeMessagesAnswer('application/json', '{"error":{"code":"404","message":"Resource not found"}}')).toBe(false);
    expect(looksLikeMessagesAnswer('text/html', '<h1>404</h1>')).toBe(false);
  });
});

describe('modelsProbeBases', () => {
  it('cloud-hosted retries /models with the older api-versions; custom asks its URL once', () => {
    expect(modelsProbeBases('cloud-hosted', 'https://r.openai.azure.com/openai')).toEqual([
      'https://r.openai.azure.com/openai',
      'https://r.openai.azure.com/openai?api-version=2024-10-21',
      'https://r.openai.azure.com/openai?api-version=2024-06-01',
    ]);
    expect(modelsProbeBases('custom', 'http://localhost:8000/v1')).toEqual(['http://localhost:8000/v1']);
  });
});

describe('probeEndpoint', () => {
  it('1: a path ending in /anthropic is the messages route, without a request', async () => {
    const base = await serve((_req, _body, res) => json(res, 500, {}));
    const outcome = await probeEndpoint(`${base}/anthropic`, { env });
    expect(outcome).toMatchObject({ kind: 'anthropic_path', apiMode: 'anthropic_messages' });
    expect(seen).toEqual([]);
  });

  it('2: an OpenAI-shaped /models list means chat_completions, with the returned ids', async () => {
    const base = await serve((req, _body, res) => (req.url === '/openai/v1/models' ? json(res, 200, { object: 'list', data: [{ id: 'gpt-4o-prod' }, { id: 'o3-mini' }] }) : json(res, 404, {})));
    const outcome = await probeEndpoint(`${base}/openai/v1`, { env });
    expect(outcome).toMatchObject({ kind: 'models_list', apiMode: 'chat_completions', models: ['gpt-4o-prod', 'o3-mini'], baseUrl: `${base}/openai/v1` });
    expect(seen.map((s) => [s.method, s.url])).toEqual([['GET', '/openai/v1/models']]);
    expect(seen[0]!.headers['api-key'] ?? seen[0]!.headers.authorization).toMatch(/hosted-key-0123456789/);
  });

  it('2: an older resource answers /models only with an api-version: tried next, and kept in the base URL', async () => {
    const base = await serve((req, _body, res) =>
      req.url === '/openai/models?api-version=2024-10-21' ? json(res, 200, { data: [{ id: 'legacy-deploy' }] }) : json(res, 404, { error: { code: '404', message: 'Resource not found' } }),
    );
    const outcome = await probeEndpoint(`${base}/openai`, { env });
    expect(outcome).toMatchObject({ kind: 'models_list', models: ['legacy-deploy'], baseUrl: `${base}/openai?api-version=2024-10-21` });
    expect(seen.map((s) => s.url)).toEqual(['/openai/models', '/openai/models?api-version=2024-10-21']);
  });

  it('3: no /models, but a messages-shaped error to a tiny request: the messages route, key in x-api-key', async () => {
    const base = await serve((req, _body, res) =>
      req.method === 'POST' && req.url === '/v1/messages'
        ? json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'model: iris-probe' } })
        : json(res, 404, { error: 'no' }),
    );
    const outcome = await probeEndpoint(base, { env });
    expect(outcome.kind).toBe('messages_probe');
    const post = seen.find((s) => s.method === 'POST')!;
    expect(post.headers['x-api-key']).toBe('hosted-key-0123456789');
    expect(post.headers.authorization).toBeUndefined();
    expect(JSON.parse(post.body)).toEqual({ model: 'iris-probe', max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(3);
  });

  it('4: every probe refused: manual entry, with what each probe got', async () => {
    const base = await serve((_req, _body, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    const outcome = await probeEndpoint(base, { env });
    expect(outcome.kind).toBe('manual');
    expect(outcome.steps.map((s) => s.probe)).toEqual(['path', 'models', 'models', 'models', 'messages']);
    expect(outcome.steps.at(-1)!.result).toBe('404, not messages-shaped');
  });

  it('a dead endpoint ends in manual entry within the timeouts', async () => {
    const outcome = await probeEndpoint('http://127.0.0.2:9', { env, timeoutMs: 500 });
    expect(outcome.kind).toBe('manual');
  });

  it('keyEnv: the key comes from that variable, not the provider default', async () => {
    const base = await serve((_req, _body, res) => json(res, 200, { data: [{ id: 'dep' }] }));
    await probeEndpoint(`${base}/openai/v1`, { env: { ...env, MY_KEY: 'named-key-0123456789' }, keyEnv: 'MY_KEY' });
    expect(seen.map((s) => [s.url, s.headers['api-key'], s.headers.authorization])).toEqual([['/openai/v1/models', 'named-key-0123456789', undefined]]);
  });

  it('identity mode: every probe carries the given source\'s token as a bearer token', async () => {
    const base = await serve((_req, _body, res) => json(res, 404, { error: 'no' }));
    const identity = { getToken: async () => ({ ok: true as const, token: 'tok-1', expiresOnMs: Date.now() + 3_600_000, source: 'managed_identity' as const }) };
    const outcome = await probeEndpoint(base, { env: {}, authMode: 'identity_token', identity });
    expect(outcome.kind).toBe('manual');
    expect(seen.map((s) => [s.method, s.url, s.headers.authorization, s.headers['api-key']])).toEqual([
      ['GET', '/models', 'Bearer tok-1', undefined],
      ['GET', '/models?api-version=2024-10-21', 'Bearer tok-1', undefined],
      ['GET', '/models?api-version=2024-06-01', 'Bearer tok-1', undefined],
      ['POST', '/v1/messages', 'Bearer tok-1', undefined],
    ]);
  });

  it('custom: one GET /models (bearer key), then the messages probe (x-api-key)', async () => {
    const base = await serve((_req, _body, res) => json(res, 404, { error: 'no' }));
    const outcome = await probeEndpoint(`${base}/v1`, { provider: 'custom', env: { LLAMA_KEY: 'llama-key-0123' }, keyEnv: 'LLAMA_KEY' });
    expect(outcome.kind).toBe('manual');
    expect(seen.map((s) => [s.method, s.url, s.headers.authorization, s.headers['x-api-key']])).toEqual([
      ['GET', '/v1/models', 'Bearer llama-key-0123', undefined],
      ['POST', '/v1/messages', undefined, 'llama-key-0123'],
    ]);
  });
});
