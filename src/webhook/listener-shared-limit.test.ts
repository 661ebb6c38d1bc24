// Step 11 across listener processes: two handlers, each with its own PostgreSQL store on one
// schema (as two gateway hosts would have), share one rate window per route through
// store.rateLimits. The inbox is one SQLite file both write to, so only the limiter is PostgreSQL's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postEvent } from '../../test/helpers/gateway.js';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { dropSchema, freshSchemaName, PG_TEST_URL } from '../../test/helpers/postgres.js';
import { openPostgresStore } from '../store/pg/pg-store.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { createWebhookHandler } from './listener.js';
import { RATE_LIMIT_DEFAULTS } from './rate-limit.js';
import type { ResolvedRoute } from './routes.js';

const schema = freshSchemaName('iris_listener');
const LIMIT = 5;
let dir: string;
let inbox: Store;
let shared: Store[];
let servers: Server[];
let urls: string[];
let clock: number;
let accepted: number[];
const logged: Array<[string, string]> = [];

const route: ResolvedRoute = { name: 'ci', source: 'config', secret: 's', enabled: true, events: [], filters: [], skills: [], toolsets: [], deliver: 'log', deliver_extra: {}, session: 'per_event', commands: false, coalesce_seconds: 30 };

async function listener(store: Store): Promise<{ server: Server; url: string }> {
  const log = (level: string) => (_fields: object, message: string) => void logged.push([level, message]);
  const handler = createWebhookHandler({
    routes: () => new Map([['ci', route]]),
    inbox: inbox.webhooks,
    limiter: { shared: store.rateLimits!, windowMs: RATE_LIMIT_DEFAULTS.windowMs },
    rateLimit: LIMIT,
    maxBodyBytes: 1024,
    bodyTimeoutMs: 1000,
    nowMs: () => clock,
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    onAccepted: (id) => accepted.push(id),
  });
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeEach(async () => {
  dir = await makeTempDir('iris-shared-limit-');
  clock = 1_800_000_000_000; // a whole second: the window's first bucket starts here
  accepted = [];
  logged.length = 0;
  inbox = await openSqliteStore(join(dir, 'state.db'));
  shared = [];
  for (let i = 0; i < 2; i++) shared.push(await openPostgresStore(PG_TEST_URL, { schema, now: () => clock, poolSize: 2 }));
  const started = [await listener(shared[0]!), await listener(shared[1]!)];
  servers = started.map((s) => s.server);
  urls = started.map((s) => s.url);
});
afterEach(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  for (const store of shared) await store.close().catch(() => undefined);
  await inbox.close();
  await removeDir(dir);
  await dropSchema(schema);
});

describe('the shared rate limit (PostgreSQL store.rateLimits)', () => {
  it(`limit ${LIMIT}: five events through either listener are accepted, the sixth gets 429 with Retry-After from both`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await postEvent(urls[i % 2]!, 'ci', { i }, { secret: 's', delivery: `d-${i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
    for (const url of urls) {
      const over = await postEvent(url, 'ci', {}, { secret: 's', delivery: `over-${url}` });
      expect(over.status).toBe(429);
      expect(over.json).toEqual({ error: 'Rate limit exceeded' });
      // The oldest request's one-second bucket leaves the 60 s window a second after it ends.
      expect(over.headers['retry-after']).toBe('61');
    }
    expect(accepted).toEqual([1, 2, 3, 4, 5]);
    clock += 61_000;
    expect((await postEvent(urls[1]!, 'ci', {}, { secret: 's', delivery: 'later' })).status).toBe(202);
  });

  it('a duplicate gives its slot back, whichever listener took it', async () => {
    expect((await postEvent(urls[0]!, 'ci', {}, { secret: 's', delivery: 'same' })).status).toBe(202);
    for (let i = 0; i < 3; i++) expect((await postEvent(urls[1]!, 'ci', {}, { secret: 's', delivery: 'same' })).json).toEqual({ status: 'duplicate', delivery_id: 'same' });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await postEvent(urls[i % 2]!, 'ci', {}, { secret: 's', delivery: `n-${i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 429]);
  });

  it('a limiter that cannot be reached answers 503 and accepts nothing; the other listener goes on', async () => {
    await shared[0]!.close();
    const answer = await postEvent(urls[0]!, 'ci', {}, { secret: 's', delivery: 'lost' });
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ error: 'Storage unavailable' });
    expect(await inbox.webhooks.list()).toEqual([]);
    expect(logged.filter(([level]) => level === 'error').map(([, message]) => message)).toEqual(['webhook rate limit unavailable (the shared store failed); event not accepted']);
    // Not a duplicate when retried through a listener whose store answers.
    expect((await postEvent(urls[1]!, 'ci', {}, { secret: 's', delivery: 'lost' })).status).toBe(202);
    expect(accepted).toEqual([1]);
  });
});
