// The wal-index header read against real SQLite files: while the WAL only grows, the bytes in use
// are the file's size; after a reset they are what the new commits wrote, however large the file.
import { readFileSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { WAL_INDEX_HEADER_BYTES, walBytesInUse } from './wal-index.js';

const LITTLE = endianness() === 'LE';
let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('iris-wal-index-');
});
afterEach(() => removeDir(dir));

function openWal(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return db;
}

const inUse = (path: string) => walBytesInUse(readFileSync(`${path}-shm`).subarray(0, WAL_INDEX_HEADER_BYTES), LITTLE);

describe('walBytesInUse on SQLite’s own files', () => {
  it('equals the WAL file’s size while the WAL grows, page size 4096', () => {
    const path = join(dir, 'grow.db');
    const db = openWal(path);
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(8_000));
    const size = statSync(`${path}-wal`).size;
    expect(size).toBeGreaterThan(40 * 8_000);
    expect(inUse(path)).toBe(size);
    expect((size - 32) % (24 + 4096)).toBe(0);
    db.close();
  });

  it('after a RESTART checkpoint and one small commit: a few frames in use, the file as large as before', () => {
    const path = join(dir, 'reset.db');
    const db = openWal(path);
    db.pragma('journal_size_limit = 10000000');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(8_000));
    const grown = statSync(`${path}-wal`).size;
    expect(db.pragma('wal_checkpoint(RESTART)')).toEqual([{ busy: 0, log: expect.any(Number) as number, checkpointed: expect.any(Number) as number }]);
    insert.run('small');
    expect(statSync(`${path}-wal`).size).toBe(grown);
    const used = inUse(path)!;
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(32 + 4 * (24 + 4096));
    db.close();
  });
});

describe('walBytesInUse on a header', () => {
  const header = (page: number, frames: number, init = 1): Uint8Array => {
    const bytes = new Uint8Array(WAL_INDEX_HEADER_BYTES);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, 3007000, LITTLE);
    bytes[12] = init;
    view.setUint16(14, page, LITTLE);
    view.setUint32(16, frames, LITTLE);
    bytes.copyWithin(48, 0, 48);
    return bytes;
  };

  it('counts the 32-byte WAL header and 24 bytes per frame; 1 in the page field means 65536', () => {
    expect(walBytesInUse(header(4096, 10), LITTLE)).toBe(32 + 10 * 4120);
    expect(walBytesInUse(header(1, 2), LITTLE)).toBe(32 + 2 * (65536 + 24));
    expect(walBytesInUse(header(4096, 0), LITTLE)).toBe(0);
  });

  it('does not trust a header whose copies differ, one not initialised, a bad page size or a short read', () => {
    const torn = header(4096, 10);
    torn[16] = 11;
    expect(walBytesInUse(torn, LITTLE)).toBeUndefined();
    expect(walBytesInUse(header(4096, 10, 0), LITTLE)).toBeUndefined();
    expect(walBytesInUse(header(0, 10), LITTLE)).toBeUndefined();
    expect(walBytesInUse(header(4096, 10).subarray(0, 95), LITTLE)).toBeUndefined();
  });
});
