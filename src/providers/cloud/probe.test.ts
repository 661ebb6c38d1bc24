// The probe sequence against real HTTP servers on loopback, one per kind of endpoint: each probe's
// request (path, query, credential header) is asserted, and each outcome.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAnthropicPath, looksLikeMessagesAnswer, probeCloudHosted } from './probe.js';

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

describe('probeCloudHosted', () => {
  it('1: a path ending in /anthropic is the messages route, without a request', async () => {
    const base = await serve((_req, _body, res) => json(res, 500, {}));
    const outcome = await probeCloudHosted(`${base}/anthropic`, { env });
    expect(outcome).toMatchObject({ kind: 'anthropic_path', apiMode: 'anthropic_messages' });
    expect(seen).toEqual([]);
  });

  it('2: an OpenAI-shaped /models list means chat_completions, with the returned ids', async () => {
    const base = await serve((req, _body, res) => (req.url === '/openai/v1/models' ? json(res, 200, { object: 'list', data: [{ id: 'gpt-4o-prod' }, { id: 'o3-mini' }] }) : json(res, 404, {})));
    const outcome = await probeCloudHosted(`${base}/openai/v1`, { env });
    expect(outcome).toMatchObject({ kind: 'models_list', apiMode: 'chat_completions', models: ['gpt-4o-prod', 'o3-mini'], baseUrl: `${base}/openai/v1` });
    expect(seen.map((s) => [s.method, s.url])).toEqual([['GET', '/openai/v1/models']]);
    expect(seen[0]!.headers['api-key'] ?? seen[0]!.headers.authorization).toMatch(/hosted-key-0123456789/);
  });

  it('2: an older resource answers /models only with an api-version: tried next, and kept in the base URL', async () => {
    const base = await serve((req, _body, res) =>
      req.url === '/openai/models?api-version=2024-10-21' ? json(res, 200, { data: [{ id: 'legacy-deploy' }] }) : json(res, 404, { error: { code: '404', message: 'Resource not found' } }),
    );
    const outcome = await probeCloudHosted(`${base}/openai`, { env });
    expect(outcome).toMatchObject({ kind: 'models_list', models: ['legacy-deploy'], baseUrl: `${base}/openai?api-version=2024-10-21` });
    expect(seen.map((s) => s.url)).toEqual(['/openai/models', '/openai/models?api-version=2024-10-21']);
  });

  it('3: no /models, but a messages-shaped error to a tiny request: the messages route, key in x-api-key', async () => {
    const base = await serve((req, _body, res) =>
      req.method === 'POST' && req.url === '/v1/messages'
        ? json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'model: iris-probe' } })
        : json(res, 404, { error: 'no' }),
    );
    const outcome = await probeCloudHosted(base, { env });
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
    const outcome = await probeCloudHosted(base, { env });
    expect(outcome.kind).toBe('manual');
    expect(outcome.steps.map((s) => s.probe)).toEqual(['path', 'models', 'models', 'models', 'messages']);
    expect(outcome.steps.at(-1)!.result).toBe('404, not messages-shaped');
  });

  it('a dead endpoint ends in manual entry within the timeouts', async () => {
    const outcome = await probeCloudHosted('http://127.0.0.2:9', { env, timeoutMs: 500 });
    expect(outcome.kind).toBe('manual');
  });
});
