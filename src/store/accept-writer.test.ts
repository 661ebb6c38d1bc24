// The gateway's accept path on its own thread: group commit under concurrency, dedup inside a
// batch, nothing queued lost at close, and a clear error when the file cannot be opened.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { startAcceptWriter } from './accept-writer.js';
import { openSqliteStore } from './sqlite-store.js';
import type { NewWebhookEvent } from './webhook-types.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('iris-writer-');
});
afterEach(() => removeDir(dir));

const event = (deliveryId: string): NewWebhookEvent => ({
  route: 'pr',
  deliveryId,
  deduplicate: true,
  event: 'pull_request',
  payload: JSON.stringify({ number: 1, body: 'x'.repeat(8_000) }),
  routeSnapshot: '{"deliver":"log"}',
  receivedAt: 5_000,
});

describe('the accept writer thread', () => {
  it('500 concurrent accepts, each delivery twice: 250 accepted with ids 1..250 in order, 250 duplicates', async () => {
    const store = await openSqliteStore(join(dir, 'state.db'), { server: true });
    const ids = Array.from({ length: 250 }, (_, i) => `d-${i}`);
    const outcomes = await Promise.all([...ids, ...ids].map((id) => store.webhooks.accept(event(id), 0)));
    expect(outcomes.slice(0, 250)).toEqual(ids.map((_, i) => ({ status: 'accepted', id: i + 1 })));
    expect(outcomes.slice(250)).toEqual(ids.map(() => ({ status: 'duplicate' })));
    expect(await store.webhooks.isDuplicate('pr', 'd-249', 0)).toBe(true);
    expect((await store.webhooks.list()).length).toBe(250);
    await store.close();
  });

  it('close writes what is queued first: every promise resolves, and the events are in the file', async () => {
    const store = await openSqliteStore(join(dir, 'state.db'), { server: true });
    const accepted = Array.from({ length: 40 }, (_, i) => store.webhooks.accept(event(`q-${i}`), 0));
    const closed = store.close();
    expect((await Promise.all(accepted)).map((o) => o.status)).toEqual(Array(40).fill('accepted'));
    await closed;
    const reopened = await openSqliteStore(join(dir, 'state.db'));
    expect((await reopened.webhooks.list()).map((e) => e.deliveryId).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `q-${i}`).sort());
    await reopened.close();
  });

  it('restarts the WAL once its bytes in use pass the bound, not whenever the file is large', async () => {
    const path = join(dir, 'state.db');
    await (await openSqliteStore(path)).close();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const writer = await startAcceptWriter(driver, path, { busyTimeoutMs: 1_000, journalSizeLimit: 64 * 1024 * 1024, restartBytes: 1024 * 1024 });
    // salt-1 of the WAL header goes up by one each time the WAL starts over from its beginning.
    const salt = () => readFileSync(`${path}-wal`).readUInt32BE(16);
    let n = 0;
    const batchOf = (count: number) => Promise.all(Array.from({ length: count }, () => writer.accept(event(`e-${n++}`), 0)));
    // Batches 1–8, 40 events of 8 KB each: over 2 MB of WAL, so the look after batch 8 restarts it.
    for (let b = 0; b < 8; b++) await batchOf(40);
    const grown = salt();
    await batchOf(1); // batch 9 writes the WAL from its start
    const restarted = salt();
    expect(restarted).toBe((grown + 1) >>> 0);
    const fileSize = readFileSync(`${path}-wal`).length;
    expect(fileSize).toBeGreaterThan(2 * 1024 * 1024);
    // Batches 10–18, one event each (the look after batch 16 among them): far less than 1 MB in
    // use, in a file still over 2 MB, so no restart.
    for (let b = 0; b < 8; b++) await batchOf(1);
    await batchOf(1);
    expect(salt()).toBe(restarted);
    // Batches 19–26 pass the bound again: the look after batch 24 restarts, batch 25 starts over.
    for (let b = 0; b < 8; b++) await batchOf(40);
    expect(salt()).toBe((restarted + 1) >>> 0);
    await writer.stop();
  });

  it('a file that is not there: the start fails with a StoreError naming it', async () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const path = join(dir, 'missing.db');
    await expect(startAcceptWriter(driver, path, { busyTimeoutMs: 100, journalSizeLimit: 1024, restartBytes: 1024 })).rejects.toMatchObject({
      name: 'StoreError',
      code: 'io',
      message: expect.stringContaining(path) as string,
    });
  });

  it('an event the schema refuses fails its own batch with a StoreError, and the writer keeps serving', async () => {
    const store = await openSqliteStore(join(dir, 'state.db'), { server: true });
    // payload is NOT NULL: the insert fails, so the batch's transaction rolls back.
    await expect(store.webhooks.accept({ ...event('bad'), payload: null as unknown as string }, 0)).rejects.toMatchObject({ name: 'StoreError' });
    expect(await store.webhooks.accept(event('good'), 0)).toEqual({ status: 'accepted', id: 1 });
    expect(await store.webhooks.isDuplicate('pr', 'bad', 0)).toBe(false);
    await store.close();
  });
});
