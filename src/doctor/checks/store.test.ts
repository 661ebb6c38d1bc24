import { describe, expect, it } from 'vitest';
import { checkStore, checkStoreSpace } from './store.js';

const PATH = '/home/me/.iris/state.db';

describe('checkStore', () => {
  it.each([
    [{ kind: 'absent', path: PATH }, 'ok', 'no state.db yet (created on first use)'],
    [{ kind: 'opened', path: PATH, version: 3 }, 'ok', 'state.db opens, schema version 3 (current)'],
    [{ kind: 'opened', path: PATH, version: 0 }, 'ok', 'state.db opens, schema version 0 (brought to 3 on next use)'],
  ] as const)('%j', (facts, status, finding) => {
    expect(checkStore(facts, 3)).toEqual({ id: 'store', name: 'store', status, finding });
  });

  it.each([
    [{ kind: 'opened', path: PATH, version: 9 }, 'fail', 'state.db has schema version 9; this Iris knows up to 3', 'upgrade Iris (the file was not changed)'],
    [{ kind: 'error', path: PATH, code: 'corrupt', message: `${PATH} is damaged` }, 'fail', `${PATH} is damaged`, `move it aside (mv ${PATH} ${PATH}.broken); Iris starts a new one`],
    [{ kind: 'error', path: PATH, code: 'busy', message: `${PATH} is locked` }, 'warn', `${PATH} is locked`, 'another process holds it locked: try again in a moment'],
    [{ kind: 'error', path: PATH, code: 'readonly', message: `${PATH} cannot be written` }, 'fail', `${PATH} cannot be written`, `make it readable and writable by you: chmod 600 ${PATH}`],
  ] as const)('%#: problems', (facts, status, finding, fix) => {
    expect(checkStore(facts, 3)).toEqual({ id: 'store', name: 'store', status, finding, fix });
  });
});

describe('checkStore on PostgreSQL', () => {
  const URL = 'postgres://iris:***@db:5432/iris';
  it.each([
    [{ kind: 'pg_opened', location: URL, version: 0 }, 'ok', `PostgreSQL at ${URL} answers; no Iris schema yet (created on first use, or iris store migrate)`],
    [{ kind: 'pg_opened', location: URL, version: 8 }, 'ok', `PostgreSQL at ${URL} answers, schema version 8 (current)`],
    [{ kind: 'pg_opened', location: URL, version: 7 }, 'ok', `PostgreSQL at ${URL} answers, schema version 7 (brought to 8 on next use, or iris store migrate)`],
  ] as const)('%j', (facts, status, finding) => {
    expect(checkStore(facts, 8)).toEqual({ id: 'store', name: 'store', status, finding });
  });

  it.each([
    [{ kind: 'pg_opened', location: URL, version: 9 }, 'fail', `PostgreSQL at ${URL} has schema version 9; this Iris knows up to 8`, 'upgrade Iris (nothing was changed)'],
    [{ kind: 'pg_error', location: URL, code: 'io', message: `cannot reach PostgreSQL at ${URL}` }, 'fail', `cannot reach PostgreSQL at ${URL}`, 'start PostgreSQL, or correct store.url in config.yaml (IRIS_STORE_URL wins over it)'],
    [{ kind: 'pg_error', location: URL, code: 'corrupt', message: `${URL} holds tables of another program` }, 'fail', `${URL} holds tables of another program`, 'give Iris a database (or schema) of its own in store.url'],
    [{ kind: 'pg_error', location: URL, code: 'busy', message: `${URL} is busy` }, 'warn', `${URL} is busy`, 'the database is busy: try again in a moment'],
  ] as const)('%#: problems', (facts, status, finding, fix) => {
    expect(checkStore(facts, 8)).toEqual({ id: 'store', name: 'store', status, finding, fix });
  });
});

describe('checkStoreSpace', () => {
  const MB = 1048576;
  const opened = (fileBytes: number, walBytes: number, freeBytes: number) => ({ kind: 'opened', path: PATH, version: 3, space: { fileBytes, walBytes, freeBytes } }) as const;

  it('nothing to say for a file that holds what it is', () => {
    expect(checkStoreSpace(opened(500 * MB, 30 * MB, 10 * MB))).toBeUndefined();
    expect(checkStoreSpace(opened(100 * MB, 64 * MB, 60 * MB))).toBeUndefined(); // both at their limits
    expect(checkStoreSpace(opened(1000 * MB, 0, 400 * MB))).toBeUndefined(); // free, but under half
    expect(checkStoreSpace({ kind: 'opened', path: PATH, version: 3 })).toBeUndefined();
    expect(checkStoreSpace({ kind: 'absent', path: PATH })).toBeUndefined();
  });

  it('a WAL over 64 MB: a warning, fixed by a gateway restart', () => {
    expect(checkStoreSpace(opened(500 * MB, 1630 * MB, 0))).toEqual({
      id: 'store:size',
      name: 'store size',
      status: 'warn',
      finding: `${PATH}-wal is 1630 MB, over the 64 MB the gateway keeps it under`,
      fix: 'restart the gateway (iris gateway restart): its checkpoint writes the WAL into state.db and cuts the file back',
    });
  });

  it('a file mostly free pages: a warning, fixed by VACUUM with the gateway stopped', () => {
    expect(checkStoreSpace(opened(2300 * MB, 0, 2000 * MB))).toEqual({
      id: 'store:size',
      name: 'store size',
      status: 'warn',
      finding: "2000 MB of state.db's 2300 MB is free space left by pruned events (new events reuse it)",
      fix: `to give it back to the disk, stop the gateway and run: sqlite3 ${PATH} VACUUM`,
    });
  });
});
