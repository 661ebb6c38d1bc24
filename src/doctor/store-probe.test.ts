// The read-only store probe on real files: it must read the version and leave the folder exactly as
// it was (no -wal/-shm created, no mode narrowed, no migration).
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../store/migrations.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import { readStoreFacts } from './store-probe.js';
import { stringMatching } from '../../test/helpers/documents.js';
import type BetterSqlite3 from 'better-sqlite3';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-store-probe-'));
  path = join(dir, 'state.db');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The sizes as the file system tells them, with the free bytes the test expects. */
async function spaceNow(freeBytes: number): Promise<{ fileBytes: number; walBytes: number; freeBytes: number }> {
  const size = (file: string) => stat(file).then((info) => info.size, () => 0);
  return { fileBytes: await size(path), walBytes: await size(`${path}-wal`), freeBytes };
}

async function makeStore(): Promise<void> {
  const store = await openSqliteStore(path);
  await store.close();
}

describe('readStoreFacts', () => {
  it('absent', async () => {
    expect(await readStoreFacts(path)).toEqual({ kind: 'absent', path });
  });

  it('reads the version of a WAL-mode file and leaves the folder and the mode as they were', async () => {
    await makeStore();
    await chmod(path, 0o644);
    const before = await readdir(dir);
    expect(await readStoreFacts(path)).toEqual({ kind: 'opened', path, version: SCHEMA_VERSION, space: await spaceNow(0) });
    expect(await readdir(dir)).toEqual(before);
    expect((await stat(path)).mode & 0o777).toBe(0o644);
  });

  it('reads in place while another connection holds the WAL open', async () => {
    const store = await openSqliteStore(path);
    try {
      expect(await readStoreFacts(path)).toEqual({ kind: 'opened', path, version: SCHEMA_VERSION, space: await spaceNow(0) });
    } finally {
      await store.close();
    }
  });

  it('an empty file is version 0 and is not migrated', async () => {
    await writeFile(path, '');
    expect(await readStoreFacts(path)).toEqual({ kind: 'opened', path, version: 0, space: await spaceNow(0) });
    expect((await stat(path)).size).toBe(0);
  });

  it('a newer schema is read, not refused here (the check decides)', async () => {
    await makeStore();
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const db = new Database(path);
    db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)').run(99, 'future', 0);
    db.close();
    expect(await readStoreFacts(path)).toEqual({ kind: 'opened', path, version: 99, space: await spaceNow(0) });
  });

  it('a file that is not SQLite is corrupt', async () => {
    await writeFile(path, 'not a database, '.repeat(20));
    expect(await readStoreFacts(path)).toEqual({
      kind: 'error',
      path,
      code: 'corrupt',
      message: stringMatching(/is damaged or not an SQLite database/),
    });
  });

  it('counts the free pages that pruned events leave behind', async () => {
    const store = await openSqliteStore(path);
    const payload = JSON.stringify({ body: 'x'.repeat(8_000) });
    for (let i = 0; i < 200; i++) {
      await store.webhooks.accept({ route: 'pr', deliveryId: `d-${i}`, deduplicate: false, event: 'push', payload, routeSnapshot: '{}', receivedAt: 1 }, 0);
      await store.webhooks.fail(i + 1, 'test');
    }
    expect(await store.webhooks.pruneFinished(Date.now() + 1)).toBe(200);
    await store.close();
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const db = new Database(path, { readonly: true });
    const free = Number(db.pragma('freelist_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
    db.close();
    expect(free).toBeGreaterThan(200 * 8_000);
    expect(await readStoreFacts(path)).toEqual({ kind: 'opened', path, version: SCHEMA_VERSION, space: await spaceNow(free) });
  });
});
