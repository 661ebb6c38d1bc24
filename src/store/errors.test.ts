// The classifier, fed with errors that real SQLite and file calls raised.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { StoreError, toStoreError } from './errors.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await makeTempDir('iris-store-');
  path = join(dir, 'state.db');
});
afterEach(() => removeDir(dir));

function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('toStoreError', () => {
  it('maps a write on a read-only database to readonly', () => {
    new Database(path).close();
    const db = new Database(path, { readonly: true });
    try {
      const err = toStoreError(thrownBy(() => db.exec('CREATE TABLE t (x)')), path);
      expect(err).toBeInstanceOf(StoreError);
      expect(err).toMatchObject({ code: 'readonly', message: `${path} cannot be written (attempt to write a readonly database)` });
    } finally {
      db.close();
    }
  });

  it('names the errno once: ENOENT is io, EACCES is readonly', async () => {
    const blocked = join(dir, 'dir-not-file');
    const err = await open(join(blocked, 'x'), 'wx').catch((e: unknown) => e);
    expect(toStoreError(err, path)).toMatchObject({
      code: 'io',
      message: `cannot use ${path}: ENOENT: no such file or directory, open '${blocked}/x'`,
    });
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/srv/state.db'"), { code: 'EACCES' });
    expect(toStoreError(eacces, '/srv/state.db')).toMatchObject({
      code: 'readonly',
      message: "/srv/state.db cannot be written (EACCES: permission denied, open '/srv/state.db')",
    });
  });

  it('passes a StoreError through and wraps anything else as io', () => {
    const own = new StoreError('conflict', 'taken');
    expect(toStoreError(own, path)).toBe(own);
    expect(toStoreError(new TypeError('The database connection is not open'), path)).toMatchObject({
      code: 'io',
      message: `cannot use ${path}: The database connection is not open`,
    });
  });
});
