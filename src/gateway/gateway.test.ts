// startGateway in this process: a step that fails after the port is open (recovering the inbox,
// pruning it, starting the pool) undoes the whole start — nothing listens, no pid file, the
// store is closed — and says why.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { resolveHomePaths, type HomePaths } from '../config/home.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import type { WebhookInbox } from '../store/webhook-types.js';
import { startGateway, type GatewayHandle } from './gateway.js';

let dir: string;
let paths: HomePaths;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function canListen(onPort: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(onPort, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

beforeEach(async () => {
  dir = await makeTempDir('iris-gateway-');
  paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
  port = await freePort();
  await mkdir(paths.dir, { mode: 0o700 });
  await writeFile(
    join(paths.dir, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: ${port}\n      routes:\n        pr:\n          secret: a-long-enough-secret\n`,
    { mode: 0o600 },
  );
});
afterEach(() => removeDir(dir));

/** The real store, with one inbox method that throws, and a record of whether it was closed. */
async function storeFailingAt(method: keyof WebhookInbox): Promise<{ open: (path: string) => Promise<Store>; closed: () => boolean }> {
  let closed = false;
  return {
    closed: () => closed,
    open: async (path) => {
      const real = await openSqliteStore(path);
      const webhooks = new Proxy(real.webhooks, {
        get(target, key, receiver) {
          if (key === method) return () => Promise.reject(new Error(`${String(method)}: database disk image is malformed`));
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      return new Proxy(real, {
        get(target, key, receiver) {
          if (key === 'webhooks') return webhooks;
          if (key === 'close') {
            return async () => {
              closed = true;
              await target.close();
            };
          }
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    },
  };
}

describe('startGateway undoes a start that fails after the port is open', () => {
  it.each(['recoverInterrupted', 'pruneDedup', 'pendingDeliveries'] as const)('when %s fails', async (method) => {
    const store = await storeFailingAt(method);
    const printed: string[] = [];
    const started = await startGateway({ paths, env: {}, openStore: store.open, print: (line) => printed.push(line) });
    expect(started).toEqual({ ok: false, code: 'store', problems: [`the gateway could not start: ${method}: database disk image is malformed`] });
    expect(await canListen(port)).toBe(true);
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(false);
    expect(store.closed()).toBe(true);
    expect(printed.join('\n')).not.toContain('gateway listening');
  });

  it('starts normally with the same store when nothing fails, and stops cleanly', async () => {
    const started = await startGateway({ paths, env: {}, openStore: (path) => openSqliteStore(path) });
    expect(started.ok).toBe(true);
    expect(await canListen(port)).toBe(false);
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(true);
    await (started as GatewayHandle).stop('test');
    expect(await canListen(port)).toBe(true);
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(false);
  });
});

describe('startGateway by role', () => {
  it('default store: the configured one (SQLite at state.db here), named in the start lines', async () => {
    const printed: string[] = [];
    const started = await startGateway({ paths, env: {}, print: (line) => printed.push(line) });
    expect(started.ok).toBe(true);
    expect(printed.join('\n').split('\n')).toContain(`  store: sqlite ${paths.statePath}`);
    await (started as GatewayHandle).stop('test');
  });

  it('a listener recovers nothing (a store whose recovery fails does not stop it) and holds gateway.pid only', async () => {
    const store = await storeFailingAt('recoverInterrupted');
    const started = await startGateway({ paths, env: {}, role: 'listener', openStore: store.open });
    expect(started).toMatchObject({ ok: true, role: 'listener', url: `http://127.0.0.1:${port}` });
    expect(await canListen(port)).toBe(false);
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(true);
    expect(existsSync(join(paths.dir, 'gateway-worker.pid'))).toBe(false);
    await (started as GatewayHandle).stop('test');
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(false);
  });

  it('a worker opens no port and writes no address, holds gateway-worker.pid, and still recovers at start', async () => {
    const failing = await storeFailingAt('recoverInterrupted');
    expect(await startGateway({ paths, env: {}, role: 'worker', openStore: failing.open })).toMatchObject({ ok: false, code: 'store' });
    const printed: string[] = [];
    const started = await startGateway({ paths, env: {}, role: 'worker', openStore: (path) => openSqliteStore(path), print: (line) => printed.push(line) });
    expect(started).toMatchObject({ ok: true, role: 'worker', url: undefined });
    expect(printed[0]!.split('\n')[0]).toBe(`gateway worker running (pid ${process.pid}): webhook runs and deliveries, chat answers and sends; no listener here`);
    expect(await canListen(port)).toBe(true);
    expect(existsSync(join(paths.dir, 'gateway.address'))).toBe(false);
    expect(existsSync(join(paths.dir, 'gateway.pid'))).toBe(false);
    expect(existsSync(join(paths.dir, 'gateway-worker.pid'))).toBe(true);
    await (started as GatewayHandle).stop('test');
    expect(existsSync(join(paths.dir, 'gateway-worker.pid'))).toBe(false);
  });

  it("a worker subscribes to the store's inbox wakes: a wake claims at once, without waiting for the poll; stopping unsubscribes", async () => {
    const subscribed: string[] = [];
    const wakes = new Map<string, () => void>();
    let unsubscribed = 0;
    let claims = 0;
    const open = async (path: string): Promise<Store> => {
      const real = await openSqliteStore(path);
      const webhooks = new Proxy(real.webhooks, {
        get(target, key, receiver) {
          if (key === 'claimNextRun') {
            return (max: number) => {
              claims++;
              return target.claimNextRun(max);
            };
          }
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const wakeups = {
        subscribe: (channel: 'inbox' | 'inbound' | 'outbox', onWake: () => void) => {
          subscribed.push(channel);
          wakes.set(channel, onWake);
          return Promise.resolve(async () => void unsubscribed++);
        },
      };
      return new Proxy(real, {
        get(target, key, receiver) {
          if (key === 'webhooks') return webhooks;
          if (key === 'wakeups') return wakeups;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    };
    const started = await startGateway({ paths, env: {}, role: 'worker', openStore: open });
    expect(started.ok).toBe(true);
    expect(subscribed).toEqual(['inbox']);
    const before = claims;
    wakes.get('inbox')!();
    await new Promise((resolve) => setTimeout(resolve, 50)); // well inside the 1 s poll
    expect(claims).toBe(before + 1);
    await (started as GatewayHandle).stop('test');
    expect(unsubscribed).toBe(1);
  });

  it('with a chat platform, a worker also subscribes to the inbound and outbox wakes, and builds its adapter without receiving', async () => {
    await writeFile(
      join(paths.dir, 'config.yaml'),
      `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: false\n    extra:\n      host: 127.0.0.1\n      port: ${port}\n  telegram:\n    enabled: true\n    extra:\n      api_base: http://127.0.0.1:9\n      allowed_users: ["1"]\n`,
      { mode: 0o600 },
    );
    const subscribed: string[] = [];
    const open = async (path: string): Promise<Store> => {
      const real = await openSqliteStore(path);
      const wakeups = { subscribe: (channel: string) => Promise.resolve(void subscribed.push(channel)).then(() => async () => {}) };
      return new Proxy(real, { get: (target, key, receiver) => (key === 'wakeups' ? wakeups : (Reflect.get(target, key, receiver) as unknown)) });
    };
    const printed: string[] = [];
    const started = await startGateway({ paths, env: { TELEGRAM_BOT_TOKEN: '123456789:AAF-fake_token_for_tests_0123456789ab' }, role: 'worker', openStore: open, print: (line) => printed.push(line) });
    expect(started.ok).toBe(true);
    expect(subscribed).toEqual(['inbound', 'outbox', 'inbox']);
    expect(printed.join('\n')).not.toContain('platform telegram');
    expect(existsSync(join(paths.dir, 'gateway.platforms.json'))).toBe(false);
    await (started as GatewayHandle).stop('test');
  });
});
