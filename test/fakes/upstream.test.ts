// The fake upstream's server side: routing, recording, the per-model script and provider-shaped
// errors. Streams that go wrong are in upstream-streams.test.ts; the exact wire output of each
// format is proven beside it, in upstream-formats/*.test.ts.
import { describe, expect, it } from 'vitest';
import type { FakeBehaviour } from './upstream.js';
import { post, useFakeUpstream } from './upstream-test-kit.js';

const fake = useFakeUpstream({ models: ['gpt-a', 'claude-b'] });

const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';
const MESSAGES = '/v1/messages';

async function chatText(model: string): Promise<unknown> {
  const res = await post(fake(), CHAT, { model });
  const body = (await res.json()) as { choices: Array<{ message: { content: unknown } }> };
  return body.choices[0]?.message.content;
}

describe('routing', () => {
  it.each([
    ['/openai/v1/chat/completions', { object: 'chat.completion' }],
    ['/v1/chat/completions', { object: 'chat.completion' }],
    ['/openai/deployments/dep-1/chat/completions?api-version=2024-10-21', { object: 'chat.completion' }],
    ['/openai/v1/responses', { object: 'response' }],
    ['/backend-api/codex/responses', { object: 'response' }],
    ['/anthropic/v1/messages', { type: 'message' }],
    ['/v1/messages', { type: 'message' }],
  ])('POST %s speaks the format its suffix names', async (path, shape) => {
    const res = await post(fake(), path, { model: 'gpt-a' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ...shape, model: 'gpt-a' });
  });

  it('takes the model from an Azure deployment path when the body names none', async () => {
    const res = await post(fake(), '/openai/deployments/dep-1/chat/completions?api-version=2024-10-21', { messages: [] });
    expect(await res.json()).toMatchObject({ object: 'chat.completion', model: 'dep-1' });
  });

  it.each([
    ['POST', '/v1/embeddings'],
    ['GET', '/v1/chat/completions'],
    ['POST', '/v1/models'],
  ])('answers %s %s with a JSON 404', async (method, path) => {
    const res = await fetch(`${fake().url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      error: { message: `The fake upstream has no route for ${method} ${path}.`, type: 'invalid_request_error', param: null, code: 'not_found' },
    });
  });

  it.each([
    [CHAT, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } }],
    [RESPONSES, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } }],
    [MESSAGES, { type: 'error', error: { type: 'invalid_request_error', message: 'The request body is not valid JSON.' } }],
  ])('answers a body that is not JSON on %s with a provider-shaped 400', async (path, body) => {
    const res = await post(fake(), path, '{"model": "gpt-a",');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(body);
  });
});

describe('/models', () => {
  it('lists the configured models under any prefix, and setModels replaces them', async () => {
    const listing = (ids: string[]) => ({
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
    });
    const first = await fetch(`${fake().url}/openai/v1/models?api-version=2024-10-21`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(await first.json()).toEqual(listing(['gpt-a', 'claude-b']));
    fake().setModels(['only-one']);
    expect(await (await fetch(`${fake().url}/anthropic/v1/models`)).json()).toEqual(listing(['only-one']));
  });
});

describe('request recording', () => {
  it('records method, exact url, path, query, lower-cased headers and the parsed body', async () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], stream: false };
    await post(fake(), '/openai/deployments/dep-1/chat/completions?api-version=2024-10-21&x=1', body, {
      'Api-Key': 'secret-key',
      'X-Trace-Id': 'trace-1',
    });
    expect(fake().requests).toHaveLength(1);
    const [request] = fake().requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/openai/deployments/dep-1/chat/completions?api-version=2024-10-21&x=1',
      path: '/openai/deployments/dep-1/chat/completions',
      query: { 'api-version': '2024-10-21', x: '1' },
      body,
      rawBody: JSON.stringify(body),
    });
    expect(request?.headers).toMatchObject({ 'api-key': 'secret-key', 'x-trace-id': 'trace-1', 'content-type': 'application/json' });
    expect(Object.keys(request?.headers ?? {}).filter((name) => name !== name.toLowerCase())).toEqual([]);
  });

  it('records GETs, unknown routes and unparsable bodies too, in arrival order', async () => {
    await fetch(`${fake().url}/v1/models?limit=5`);
    await fetch(`${fake().url}/nowhere`, { method: 'DELETE' });
    await post(fake(), MESSAGES, '{nope');
    expect(fake().requests.map(({ method, url, body, rawBody }) => ({ method, url, body, rawBody }))).toEqual([
      { method: 'GET', url: '/v1/models?limit=5', body: undefined, rawBody: '' },
      { method: 'DELETE', url: '/nowhere', body: undefined, rawBody: '' },
      { method: 'POST', url: MESSAGES, body: undefined, rawBody: '{nope' },
    ]);
  });
});

describe('the script', () => {
  it('answers an unscripted model with the text "ok"', async () => {
    expect(await chatText('never-scripted')).toBe('ok');
  });

  it('plays a model\'s queue in order and repeats the last behaviour', async () => {
    fake().script('gpt-a', { kind: 'text', deltas: ['one'] }, { kind: 'text', deltas: ['two'] });
    expect([await chatText('gpt-a'), await chatText('gpt-a'), await chatText('gpt-a')]).toEqual(['one', 'two', 'two']);
  });

  it('keeps one queue per model, shared by every format', async () => {
    fake().script('gpt-a', { kind: 'text', deltas: ['first'] }, { kind: 'server_error' });
    expect(await chatText('other')).toBe('ok');
    expect((await post(fake(), RESPONSES, { model: 'gpt-a' })).status).toBe(200);
    expect((await post(fake(), MESSAGES, { model: 'gpt-a' })).status).toBe(500);
  });

  it('replaces a model\'s queue when scripted again, and clears it when scripted with nothing', async () => {
    fake().script('gpt-a', { kind: 'text', deltas: ['old-1'] }, { kind: 'text', deltas: ['old-2'] });
    expect(await chatText('gpt-a')).toBe('old-1');
    fake().script('gpt-a', { kind: 'text', deltas: ['new'] });
    expect(await chatText('gpt-a')).toBe('new');
    fake().script('gpt-a');
    expect(await chatText('gpt-a')).toBe('ok');
  });

  it('reset() empties the same requests array, forgets scripts and restarts ids', async () => {
    const requests = fake().requests;
    fake().script('gpt-a', { kind: 'text', deltas: ['scripted'] });
    await post(fake(), CHAT, { model: 'gpt-a' });
    fake().reset();
    expect(requests).toHaveLength(0);
    expect(fake().requests).toBe(requests);
    const res = await post(fake(), CHAT, { model: 'gpt-a' });
    expect(await res.json()).toMatchObject({ id: 'chatcmpl-fake-1', choices: [{ message: { content: 'ok' } }] });
    expect(requests).toHaveLength(1);
  });
});

const OPENAI_ERRORS: Array<[string, FakeBehaviour, number, Record<string, string>, unknown]> = [
  [
    'rate_limited',
    { kind: 'rate_limited', retryAfterSeconds: 7 },
    429,
    { 'retry-after': '7' },
    { error: { message: 'Rate limit reached for requests. Please try again in 7s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
  ],
  [
    'overloaded',
    { kind: 'overloaded' },
    529,
    {},
    { error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null } },
  ],
  [
    'unauthorized',
    { kind: 'unauthorized' },
    401,
    {},
    {
      error: {
        message: 'Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  ],
  [
    'server_error',
    { kind: 'server_error' },
    500,
    {},
    { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } },
  ],
  [
    'error without a body',
    { kind: 'error', status: 418 },
    418,
    {},
    { error: { message: 'Fake upstream error (HTTP 418).', type: 'invalid_request_error', param: null, code: null } },
  ],
];

const ANTHROPIC_ERRORS: Array<[string, FakeBehaviour, number, Record<string, string>, unknown]> = [
  [
    'rate_limited',
    { kind: 'rate_limited', retryAfterSeconds: 7 },
    429,
    { 'retry-after': '7' },
    { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your per-minute rate limit.' } },
  ],
  ['overloaded', { kind: 'overloaded' }, 529, {}, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
  ['unauthorized', { kind: 'unauthorized' }, 401, {}, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }],
  ['server_error', { kind: 'server_error' }, 500, {}, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } }],
  [
    'error without a body',
    { kind: 'error', status: 403 },
    403,
    {},
    { type: 'error', error: { type: 'permission_error', message: 'Fake upstream error (HTTP 403).' } },
  ],
];

// Azure's gateway answers these before any API format is involved, so every path gets the same body.
const AZURE_ERRORS: Array<[string, FakeBehaviour, number, Record<string, string>, unknown]> = [
  [
    'unsupported',
    { kind: 'unsupported' },
    400,
    {},
    { error: { code: 'OperationNotSupported', message: 'The requested operation is unsupported.' } },
  ],
  [
    'deployment_not_found',
    { kind: 'deployment_not_found' },
    404,
    {},
    {
      error: {
        code: 'DeploymentNotFound',
        message:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      },
    },
  ],
];

describe('errors', () => {
  const cases = [
    ...[CHAT, RESPONSES].flatMap((path) => [...OPENAI_ERRORS, ...AZURE_ERRORS].map((row) => [path, ...row] as const)),
    ...[...ANTHROPIC_ERRORS, ...AZURE_ERRORS].map((row) => [MESSAGES, ...row] as const),
  ];

  it.each(cases)('%s answers %s with its status, headers and JSON body, even to a stream request', async (path, _name, behaviour, status, headers, body) => {
    fake().script('m', behaviour);
    const res = await post(fake(), path, { model: 'm', stream: true });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('retry-after')).toBe(headers['retry-after'] ?? null);
    expect(await res.json()).toEqual(body);
  });

  it('sends a scripted error body and headers as given', async () => {
    fake().script('m', { kind: 'error', status: 503, body: { detail: 'custom' }, headers: { 'retry-after-ms': '250', 'x-ms-region': 'eastus' } });
    const res = await post(fake(), MESSAGES, { model: 'm' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after-ms')).toBe('250');
    expect(res.headers.get('x-ms-region')).toBe('eastus');
    expect(await res.json()).toEqual({ detail: 'custom' });
  });

  it('sends raw bytes exactly, with the given status and content type', async () => {
    fake().script('m', { kind: 'raw', status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' });
    const res = await post(fake(), CHAT, { model: 'm', stream: true });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(await res.text()).toBe('<html>Bad Gateway</html>');
  });
});
