// The WAL's bytes in use, read against real SQLite files: while the WAL only grows they are the
// file's size; after a reset, what the new commits wrote, however large the file stays.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { WAL_HEADER_BYTES, walBytesInUse } from './wal-index.js';

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

/** As the accept writer reads it: the header, then frame headers on demand. */
function inUse(path: string): number {
  const fd = openSync(`${path}-wal`, 'r');
  try {
    const header = Buffer.alloc(WAL_HEADER_BYTES);
    readSync(fd, header, 0, header.length, 0);
    const frame = Buffer.alloc(16);
    return walBytesInUse(header, statSync(`${path}-wal`).size, (offset) => (readSync(fd, frame, 0, 16, offset) === 16 ? frame : undefined));
  } finally {
    closeSync(fd);
  }
}

describe('walBytesInUse on SQLite’s own files', () => {
  it('equals the WAL file’s size while the WAL grows, page size 4096', () => {
    const path = join(dir, 'grow.db');
    const db = openWal(path);
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(8_000));
    const size = statSync(`${path}-wal`).size;
    expect(size).toBeGreaterThan(40 * 8_000);
    expect((size - 32) % (24 + 4096)).toBe(0);
    expect(inUse(path)).toBe(size);
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
    const used = inUse(path);
    expect(used).toBeGreaterThan(32);
    expect(used).toBeLessThanOrEqual(32 + 4 * (24 + 4096));
    // And it grows again with the commits, still inside the old file.
    for (let i = 0; i < 10; i++) insert.run('x'.repeat(8_000));
    expect(inUse(path)).toBeGreaterThan(10 * 8_000);
    expect(inUse(path)).toBeLessThan(grown);
    db.close();
  });
});

describe('walBytesInUse on a header and frames', () => {
  const PAGE = 4096;
  const header = (salt1: number, magic = 0x377f0682, page = PAGE): Uint8Array => {
    const bytes = Buffer.alloc(WAL_HEADER_BYTES);
    bytes.writeUInt32BE(magic, 0);
    bytes.writeUInt32BE(page, 8);
    bytes.writeUInt32BE(salt1, 16);
    bytes.writeUInt32BE(0xabcdef01, 20);
    return bytes;
  };
  const frame = (salt1: number): Uint8Array => {
    const bytes = Buffer.alloc(16);
    bytes.writeUInt32BE(salt1, 8);
    bytes.writeUInt32BE(0xabcdef01, 12);
    return bytes;
  };
  /** `current` frames of this reset, then `stale` ones from the one before, in a file that size. */
  const file = (current: number, stale: number) => {
    const frames = [...Array<number>(current).fill(7), ...Array<number>(stale).fill(6)];
    const read = (offset: number) => {
      expect((offset - 32) % (24 + PAGE)).toBe(0);
      const i = (offset - 32) / (24 + PAGE);
      return i < frames.length ? frame(frames[i]!) : undefined;
    };
    return { size: 32 + frames.length * (24 + PAGE), read };
  };

  it('counts the 32-byte header and 24 + page bytes per frame of this reset, not the stale ones after them', () => {
    for (const [current, stale] of [[0, 0], [1, 0], [3, 100], [100, 3], [64, 64], [1, 999]] as const) {
      const { size, read } = file(current, stale);
      expect(walBytesInUse(header(7), size, read)).toBe(32 + current * (24 + PAGE));
    }
  });

  it('is 0 for no header, a wrong magic or a page size SQLite cannot have', () => {
    const { size, read } = file(5, 5);
    expect(walBytesInUse(new Uint8Array(0), size, read)).toBe(0);
    expect(walBytesInUse(header(7, 0x12345678), size, read)).toBe(0);
    expect(walBytesInUse(header(7, 0x377f0682, 3000), size, read)).toBe(0);
    expect(walBytesInUse(header(7, 0x377f0683, 131072), size, read)).toBe(0);
    expect(walBytesInUse(header(7, 0x377f0683), size, read)).toBe(32 + 5 * (24 + PAGE));
  });
});
