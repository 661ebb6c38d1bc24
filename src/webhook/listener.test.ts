// The handler in-process on a real HTTP server and a real SQLite inbox, with an injected clock:
// the rows an end-to-end run cannot reach or cannot wait for (a route without a secret, the
// one-hour window, the rate window sliding, a store that fails).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postEvent, send } from '../../test/helpers/gateway.js';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { createWebhookHandler, DEDUP_WINDOW_MS } from './listener.js';
import { createSlidingWindowLimiter } from './rate-limit.js';
import type { ResolvedRoute } from './routes.js';

let dir: string;
let store: Store;
let server: Server;
let url: string;
let clock: number;
let accepted: number[];
const logged: Array<[string, string]> = [];

function route(name: string, overrides: Partial<ResolvedRoute> = {}): ResolvedRoute {
  return { name, source: 'config', secret: 's', enabled: true, events: [], filters: [], skills: [], toolsets: [], deliver: 'log', deliver_extra: {}, session: 'per_event', commands: false, coalesce_seconds: 30, ...overrides };
}

const routes = new Map<string, ResolvedRoute>([
  ['signed', route('signed')],
  ['no-secret', route('no-secret', { secret: '' })],
  ['insecure', route('insecure', { secret: 'INSECURE_NO_AUTH' })],
]);

beforeEach(async () => {
  dir = await makeTempDir('iris-listener-');
  clock = 1_800_000_000_000;
  accepted = [];
  logged.length = 0;
  store = await openSqliteStore(join(dir, 'state.db'));
  const log = (level: string) => (_fields: object, message: string) => void logged.push([level, message]);
  const handler = createWebhookHandler({
    routes: () => routes,
    inbox: store.webhooks,
    limiter: createSlidingWindowLimiter({ limit: 2, nowMs: () => clock }),
    rateLimit: 2,
    maxBodyBytes: 1024,
    bodyTimeoutMs: 1000,
    nowMs: () => clock,
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    onAccepted: (id) => accepted.push(id),
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close().catch(() => undefined);
  await removeDir(dir);
});

describe('webhook handler', () => {
  it('4: a route with no effective secret → 403, never verified against an empty key', async () => {
    expect(await postEvent(url, 'no-secret', { a: 1 }, { secret: '' })).toMatchObject({ status: 403, json: { error: 'Route has no secret' } });
  });

  it('5: INSECURE_NO_AUTH skips the signature', async () => {
    const answer = await send(url, { path: '/webhooks/insecure', headers: { 'x-forge-event': 'push', 'x-forge-delivery': 'i-1' }, body: '{"a":1}' });
    expect(answer).toMatchObject({ status: 202, json: { status: 'accepted', route: 'insecure', event: 'push', delivery_id: 'i-1' } });
  });

  it('10: a delivery id is a duplicate for one hour, and accepted again after it', async () => {
    expect(await postEvent(url, 'signed', { a: 1 }, { secret: 's', delivery: 'h-1' })).toMatchObject({ status: 202 });
    clock += DEDUP_WINDOW_MS - 1;
    expect(await postEvent(url, 'signed', { a: 1 }, { secret: 's', delivery: 'h-1' })).toMatchObject({ status: 200, json: { status: 'duplicate', delivery_id: 'h-1' } });
    clock += 2; // past the hour since the first acceptance
    expect(await postEvent(url, 'signed', { a: 1 }, { secret: 's', delivery: 'h-1' })).toMatchObject({ status: 202 });
    expect((await store.webhooks.list()).map((e) => e.deliveryId)).toEqual(['h-1', 'h-1']);
    expect(accepted).toEqual([1, 2]);
  });

  it('11: the rate window slides: a slot frees up 60 s after the oldest request, with Retry-After saying so', async () => {
    expect((await postEvent(url, 'signed', {}, { secret: 's' })).status).toBe(202);
    clock += 20_000;
    expect((await postEvent(url, 'signed', {}, { secret: 's' })).status).toBe(202);
    const over = await postEvent(url, 'signed', {}, { secret: 's' });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('40');
    clock += 40_000;
    expect((await postEvent(url, 'signed', {}, { secret: 's' })).status).toBe(202);
  });

  it('10–11: a duplicate below the limit costs no quota, and one over the limit is still answered as a duplicate', async () => {
    expect((await postEvent(url, 'signed', {}, { secret: 's', delivery: 'q-1' })).status).toBe(202);
    expect((await postEvent(url, 'signed', {}, { secret: 's', delivery: 'q-1' })).json).toEqual({ status: 'duplicate', delivery_id: 'q-1' });
    expect((await postEvent(url, 'signed', {}, { secret: 's', delivery: 'q-2' })).status).toBe(202); // the second of 2
    expect((await postEvent(url, 'signed', {}, { secret: 's', delivery: 'q-2' })).json).toEqual({ status: 'duplicate', delivery_id: 'q-2' });
    expect((await postEvent(url, 'signed', {}, { secret: 's', delivery: 'q-3' })).status).toBe(429);
  });

  it('12: a store that cannot write → 503 and nothing accepted; the listener keeps answering', async () => {
    await store.close();
    const refused = await postEvent(url, 'signed', { a: 1 }, { secret: 's', delivery: 'lost-1' });
    expect(refused).toMatchObject({ status: 503, json: { error: 'Storage unavailable' } });
    // The sender is told when to try again (a full disk, a database restarting).
    expect(refused.headers['retry-after']).toBe('5');
    expect(accepted).toEqual([]);
    expect(logged.some(([level]) => level === 'error')).toBe(true);
    expect(await send(url, { method: 'GET', path: '/health' })).toMatchObject({ status: 200 });
  });

  it('/health reports the store and the disk from the probe: 503 while the store is out of reach', async () => {
    const probed = createServer(
      createWebhookHandler({
        routes: () => routes,
        inbox: store.webhooks,
        limiter: createSlidingWindowLimiter({ limit: 2, nowMs: () => clock }),
        rateLimit: 2,
        maxBodyBytes: 1024,
        bodyTimeoutMs: 1000,
        nowMs: () => clock,
        log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
        onAccepted: () => {},
        health: async () => (healthy ? { store: 'ok', disk: { freeBytes: 1, totalBytes: 100, low: true } } : { store: 'unreachable' }),
      }),
    );
    let healthy = true;
    await new Promise<void>((resolve) => probed.listen(0, '127.0.0.1', resolve));
    const probedUrl = `http://127.0.0.1:${(probed.address() as AddressInfo).port}`;
    try {
      expect(await send(probedUrl, { method: 'GET', path: '/health' })).toMatchObject({
        status: 200,
        json: { status: 'ok', platform: 'webhook', store: 'ok', disk: { free_bytes: 1, total_bytes: 100, low: true } },
      });
      healthy = false;
      expect(await send(probedUrl, { method: 'GET', path: '/health' })).toMatchObject({ status: 503, json: { status: 'unavailable', store: 'unreachable' } });
    } finally {
      await new Promise((resolve) => probed.close(resolve));
    }
  });

  it('7: ignored events are logged at debug only', async () => {
    routes.set('only-push', route('only-push', { events: ['push'] }));
    expect(await postEvent(url, 'only-push', {}, { secret: 's', event: 'ping' })).toMatchObject({ status: 200, json: { status: 'ignored', event: 'ping' } });
    expect(logged.filter(([, message]) => message.includes('ignored')).map(([level]) => level)).toEqual(['debug']);
    routes.delete('only-push');
  });
});
