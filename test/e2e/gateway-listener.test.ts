// The webhook listener end to end: `iris gateway run` as a subprocess on a free port, real HTTP,
// every row of DECISIONS.md's check order, both signature schemes, and bad bodies.
import { connect } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, send, sign, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let gateway: GatewayProcess;

const CONFIG = `model:
  provider: openai
  default: main-m
platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      rate_limit: 10
      max_body_bytes: 4096
      body_timeout: 1
      routes:
        github-pr:
          secret: pr-secret-0123456789abcdef
          events: [pull_request]
          filters:
            - field: action
              in: [opened, synchronize]
            - field: number
              in: ["42", 7]
        gitlab:
          secret: gl-token-0123456789abcdef
          events: [Merge Request Hook]
        any:
          secret: any-secret-0123456789abcdef
        limited:
          secret: lim-secret-0123456789abcdef
          events: [pull_request]
        off:
          enabled: false
          secret: off-secret-0123456789abcdef
`;

beforeAll(async () => {
  fake = await startFakeUpstream();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
});
afterAll(async () => {
  await gateway?.stop();
  await fake.close();
  await removeDir(dir);
});

const pr = { action: 'opened', number: 42, pull_request: { title: 'Fix the thing' }, repository: { full_name: 'octo/hello' } };

async function deliveries(): Promise<Array<{ route: string; delivery_id: string; event: string }>> {
  const result = await runIris(['webhook', 'deliveries', '--json', '--limit', '1000'], { home });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Array<{ route: string; delivery_id: string; event: string }>;
}

describe('GET /health and other paths', () => {
  it('answers health as JSON', async () => {
    const answer = await send(gateway.url, { method: 'GET', path: '/health' });
    expect(answer).toMatchObject({ status: 200, json: { status: 'ok', platform: 'webhook' } });
    expect(answer.headers['content-type']).toBe('application/json');
  });

  it('405 with Allow for other methods, 404 JSON for other paths', async () => {
    expect(await send(gateway.url, { method: 'POST', path: '/health' })).toMatchObject({ status: 405, json: { error: 'Method not allowed' } });
    const get = await send(gateway.url, { method: 'GET', path: '/webhooks/github-pr' });
    expect(get).toMatchObject({ status: 405, json: { error: 'Method not allowed' } });
    expect(get.headers.allow).toBe('POST');
    expect(await send(gateway.url, { method: 'GET', path: '/nope' })).toMatchObject({ status: 404, json: { error: 'Not found' } });
  });
});

describe('POST /webhooks/<route>: the check order', () => {
  it('1: unknown route → 404 naming it, before the body is looked at', async () => {
    expect(await send(gateway.url, { path: '/webhooks/nope', body: 'not even json' })).toMatchObject({ status: 404, json: { error: 'Unknown route: nope' } });
  });

  it('2: a disabled route → 403, even with a valid signature', async () => {
    expect(await postEvent(gateway.url, 'off', pr, { secret: 'off-secret-0123456789abcdef' })).toMatchObject({ status: 403, json: { error: 'Route disabled' } });
  });

  it('3: a declared Content-Length over max_body_bytes → 413 (even unsigned)', async () => {
    const body = 'x'.repeat(5000);
    expect(await send(gateway.url, { path: '/webhooks/github-pr', headers: { 'content-type': 'application/json' }, body })).toMatchObject({
      status: 413,
      json: { error: 'Payload too large' },
    });
  });

  it('3: a chunked body that grows past the cap → 413', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('POST /webhooks/github-pr HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = 'y'.repeat(1024);
      for (let i = 0; i < 6; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"error":"Payload too large"}');
  });

  it('3: a body not complete within body_timeout → 408', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('POST /webhooks/github-pr HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"action":');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"error":"Request body not received in time"}');
  });

  it('5: no signature header → 401; a wrong HMAC → 401; a malformed signature → 401', async () => {
    const body = JSON.stringify(pr);
    const headers = { 'content-type': 'application/json', 'x-github-event': 'pull_request' };
    expect(await send(gateway.url, { path: '/webhooks/github-pr', headers, body })).toMatchObject({ status: 401, json: { error: 'Invalid signature' } });
    expect(await send(gateway.url, { path: '/webhooks/github-pr', headers: { ...headers, 'x-hub-signature-256': sign(body, 'wrong') }, body })).toMatchObject({ status: 401 });
    expect(await send(gateway.url, { path: '/webhooks/github-pr', headers: { ...headers, 'x-hub-signature-256': 'sha1=abc' }, body })).toMatchObject({ status: 401 });
    // The HMAC is over the raw bytes: the same JSON re-spaced does not verify.
    expect(await send(gateway.url, { path: '/webhooks/github-pr', headers: { ...headers, 'x-hub-signature-256': sign(body, 'pr-secret-0123456789abcdef') }, body: JSON.stringify(pr, null, 1) })).toMatchObject({ status: 401 });
  });

  it('5: when X-Hub-Signature-256 is present it alone decides (a right token does not rescue a wrong HMAC)', async () => {
    const body = JSON.stringify(pr);
    const answer = await send(gateway.url, {
      path: '/webhooks/github-pr',
      headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-hub-signature-256': sign(body, 'wrong'), 'x-gitlab-token': 'pr-secret-0123456789abcdef' },
      body,
    });
    expect(answer).toMatchObject({ status: 401, json: { error: 'Invalid signature' } });
  });

  it('5: GitLab-style plain tokens (X-Gitlab-Token and X-Alt-Forge-Token) with the GitLab event header', async () => {
    const body = JSON.stringify({ object_kind: 'merge_request', object_attributes: { iid: 5, title: 'MR' } });
    const ok = await send(gateway.url, {
      path: '/webhooks/gitlab',
      headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': 'gl-token-0123456789abcdef', 'x-gitlab-event-uuid': 'gl-uuid-1' },
      body,
    });
    expect(ok).toMatchObject({ status: 202, json: { status: 'accepted', route: 'gitlab', event: 'Merge Request Hook', delivery_id: 'gl-uuid-1' } });
    const alt = await send(gateway.url, {
      path: '/webhooks/gitlab',
      headers: { 'content-type': 'application/json', 'x-alt-forge-event': 'Merge Request Hook', 'x-alt-forge-token': 'gl-token-0123456789abcdef', 'x-request-id': 'alt-1' },
      body,
    });
    expect(alt).toMatchObject({ status: 202, json: { event: 'Merge Request Hook', delivery_id: 'alt-1' } });
    const wrong = await send(gateway.url, { path: '/webhooks/gitlab', headers: { 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': 'nope' }, body });
    expect(wrong).toMatchObject({ status: 401, json: { error: 'Invalid signature' } });
  });

  it('6: bad bodies get their 400, never a 500', async () => {
    const cases: Array<[string | Buffer, string, string | undefined]> = [
      ['{"action":', 'Malformed JSON', 'application/json'],
      ['', 'Malformed JSON', 'application/json'],
      ['[1,2]', 'Payload must be a JSON object', 'application/json'],
      ['"text"', 'Payload must be a JSON object', 'application/json'],
      [Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'Body is not valid UTF-8', 'application/json'],
      ['action=opened', 'Missing payload field', 'application/x-www-form-urlencoded'],
    ];
    for (const [body, error, contentType] of cases) {
      const answer = await send(gateway.url, {
        path: '/webhooks/any',
        headers: { ...(contentType ? { 'content-type': contentType } : {}), 'x-hub-signature-256': sign(body, 'any-secret-0123456789abcdef') },
        body,
      });
      expect([answer.status, answer.json]).toEqual([400, { error }]);
    }
  });

  it("6: GitHub's form encoding is accepted as JSON (signed over the form bytes)", async () => {
    const body = new URLSearchParams({ payload: JSON.stringify(pr) }).toString();
    const answer = await send(gateway.url, {
      path: '/webhooks/github-pr',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'pull_request', 'x-github-delivery': 'form-1', 'x-hub-signature-256': sign(body, 'pr-secret-0123456789abcdef') },
      body,
    });
    expect(answer).toMatchObject({ status: 202, json: { status: 'accepted', route: 'github-pr', event: 'pull_request', delivery_id: 'form-1' } });
  });

  it('7: an event not in the route’s events → 200 ignored (ping included)', async () => {
    expect(await postEvent(gateway.url, 'github-pr', { zen: 'hi' }, { secret: 'pr-secret-0123456789abcdef', event: 'ping' })).toMatchObject({
      status: 200,
      json: { status: 'ignored', event: 'ping' },
    });
    // With no header at all, the payload's object_kind names the event.
    const body = JSON.stringify({ object_kind: 'push' });
    const answer = await send(gateway.url, { path: '/webhooks/github-pr', headers: { 'x-hub-signature-256': sign(body, 'pr-secret-0123456789abcdef') }, body });
    expect(answer).toMatchObject({ status: 200, json: { status: 'ignored', event: 'push' } });
  });

  it('8: filters: every filter must match (numbers match their decimal string) → else 200 ignored with reason filter', async () => {
    expect(await postEvent(gateway.url, 'github-pr', { ...pr, action: 'closed' }, { secret: 'pr-secret-0123456789abcdef' })).toMatchObject({
      status: 200,
      json: { status: 'ignored', event: 'pull_request', reason: 'filter' },
    });
    expect(await postEvent(gateway.url, 'github-pr', { ...pr, number: 8 }, { secret: 'pr-secret-0123456789abcdef' })).toMatchObject({ status: 200, json: { reason: 'filter' } });
    expect(await postEvent(gateway.url, 'github-pr', { ...pr, number: '7' }, { secret: 'pr-secret-0123456789abcdef' })).toMatchObject({ status: 202 });
  });

  it('9–10: a delivery id is accepted once per route; the same id on another route is its own event', async () => {
    const first = await postEvent(gateway.url, 'github-pr', pr, { secret: 'pr-secret-0123456789abcdef', delivery: 'dup-1' });
    expect(first).toMatchObject({ status: 202, json: { status: 'accepted', route: 'github-pr', event: 'pull_request', delivery_id: 'dup-1' } });
    expect(await postEvent(gateway.url, 'github-pr', pr, { secret: 'pr-secret-0123456789abcdef', delivery: 'dup-1' })).toMatchObject({
      status: 200,
      json: { status: 'duplicate', delivery_id: 'dup-1' },
    });
    expect(await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef', delivery: 'dup-1' })).toMatchObject({ status: 202 });
    const rows = (await deliveries()).filter((row) => row.delivery_id === 'dup-1');
    expect(rows.map((row) => row.route).sort()).toEqual(['any', 'github-pr']);
  });

  it('9: X-Request-ID is the key when there is no delivery header; with neither, every request is new', async () => {
    const headers = { 'x-request-id': 'req-1' };
    expect(await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef', delivery: null, headers })).toMatchObject({ status: 202, json: { delivery_id: 'req-1' } });
    expect(await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef', delivery: null, headers })).toMatchObject({ status: 200, json: { status: 'duplicate' } });
    const a = await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef', delivery: null });
    const b = await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef', delivery: null });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect((a.json as { delivery_id: string }).delivery_id).toMatch(/^\d{13}$/);
  });

  it('11: over rate_limit in 60 s → 429 with Retry-After; a 429 records nothing, and ignored events and duplicates cost no quota', async () => {
    const accepted = [];
    for (let i = 0; i < 10; i++) accepted.push((await postEvent(gateway.url, 'limited', pr, { secret: 'lim-secret-0123456789abcdef', delivery: `lim-${i}` })).status);
    expect(accepted).toEqual(Array(10).fill(202));
    // A duplicate still answers as one (it costs nothing).
    expect(await postEvent(gateway.url, 'limited', pr, { secret: 'lim-secret-0123456789abcdef', delivery: 'lim-0' })).toMatchObject({ status: 200, json: { status: 'duplicate' } });
    const over = await postEvent(gateway.url, 'limited', pr, { secret: 'lim-secret-0123456789abcdef', delivery: 'lim-10' });
    expect(over).toMatchObject({ status: 429, json: { error: 'Rate limit exceeded' } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Nothing was recorded: the retry is refused again for the rate, not answered as a duplicate.
    expect(await postEvent(gateway.url, 'limited', pr, { secret: 'lim-secret-0123456789abcdef', delivery: 'lim-10' })).toMatchObject({ status: 429 });
    const recorded = (await deliveries()).filter((row) => row.route === 'limited').map((row) => row.delivery_id);
    expect(recorded.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `lim-${i}`).sort());
    // Over the limit, an ignored event is still answered as ignored (it starts no run).
    expect(await postEvent(gateway.url, 'limited', pr, { secret: 'lim-secret-0123456789abcdef', event: 'ping' })).toMatchObject({ status: 200, json: { status: 'ignored', event: 'ping' } });
    // Other routes have their own window.
    expect(await postEvent(gateway.url, 'any', pr, { secret: 'any-secret-0123456789abcdef' })).toMatchObject({ status: 202 });
  });

  it('12: an accepted event is in the inbox with its route, event and delivery id', async () => {
    const answer = await postEvent(gateway.url, 'github-pr', pr, { secret: 'pr-secret-0123456789abcdef', delivery: 'inbox-1' });
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ status: 'accepted', route: 'github-pr', event: 'pull_request', delivery_id: 'inbox-1' });
    expect((await deliveries()).find((row) => row.delivery_id === 'inbox-1')).toMatchObject({ route: 'github-pr', event: 'pull_request' });
  });

  it('survives a client that sends half a body and disconnects, and keeps serving', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(gateway.port, '127.0.0.1', () => {
        socket.write('POST /webhooks/any HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"action":"op');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    expect(await send(gateway.url, { method: 'GET', path: '/health' })).toMatchObject({ status: 200 });
    expect(gateway.child.exitCode).toBeNull();
  });

  it('logs no secret and no 500, whatever it is sent', async () => {
    // Its own traffic, so it checks something when run alone: right and wrong signatures and
    // tokens for every route, a disabled route, an unknown one and a malformed body.
    const body = JSON.stringify(pr);
    for (const [route, secret] of [['github-pr', 'pr-secret-0123456789abcdef'], ['any', 'any-secret-0123456789abcdef'], ['limited', 'lim-secret-0123456789abcdef'], ['off', 'off-secret-0123456789abcdef'], ['nowhere', 'x']] as const) {
      const headers = { 'content-type': 'application/json', 'x-github-event': 'pull_request' };
      await send(gateway.url, { path: `/webhooks/${route}`, headers: { ...headers, 'x-hub-signature-256': sign(body, secret) }, body });
      await send(gateway.url, { path: `/webhooks/${route}`, headers: { ...headers, 'x-hub-signature-256': sign(body, `${secret}-wrong`) }, body });
      await send(gateway.url, { path: `/webhooks/${route}`, headers: { ...headers, 'x-hub-signature-256': sign('{bad', secret) }, body: '{bad' });
    }
    await send(gateway.url, { path: '/webhooks/gitlab', headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': 'gl-token-0123456789abcdef' }, body });
    await send(gateway.url, { path: '/webhooks/gitlab', headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': 'gl-token-wrong' }, body });
    const log = await waitFor(async () => {
      const text = await readFile(join(home, 'logs', 'gateway.log'), 'utf8').catch(() => '');
      return text.includes('"route":"gitlab"') ? text : undefined;
    }, 10_000, 'the requests in gateway.log');
    for (const secret of ['pr-secret-0123456789abcdef', 'gl-token-0123456789abcdef', 'any-secret-0123456789abcdef', 'lim-secret-0123456789abcdef']) expect(log).not.toContain(secret);
    expect(log).not.toContain('webhook handler failed');
  });
});
