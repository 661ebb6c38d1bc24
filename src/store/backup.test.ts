// The online backup of state.db: a copy that opens as a store with the same rows, put in place
// only when whole, and the refusals that keep a backup from overwriting what it should not.
import { mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupStore } from './backup.js';
import { openSqliteStore } from './sqlite-store.js';

let dir: string;
let source: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-backup-'));
  source = join(dir, 'state.db');
  const store = await openSqliteStore(source);
  for (const title of ['one', 'two']) {
    const session = await store.createSession({ source: 'cli', provider: 'openai', model: 'm', title });
    await store.appendMessages(session.id, [{ role: 'user', content: `hello ${title}` }]);
  }
  await store.close();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('backupStore', () => {
  it('copies the store into a file that opens with the same sessions and messages, mode 0600', async () => {
    const result = await backupStore(source, join(dir, 'copy.db'));
    expect(result).toMatchObject({ ok: true, path: join(dir, 'copy.db'), counts: { sessions: 2, webhookEvents: 0 } });
    expect((await stat(join(dir, 'copy.db'))).mode & 0o777).toBe(0o600);
    const copy = await openSqliteStore(join(dir, 'copy.db'));
    const sessions = await copy.listSessions();
    expect(sessions.map((s) => s.title).sort()).toEqual(['one', 'two']);
    expect(await copy.loadMessages(sessions[0]!.id)).toHaveLength(1);
    await copy.close();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses an existing file without force, replaces it with force, and never the store itself', async () => {
    await writeFile(join(dir, 'old.db'), 'not a database');
    expect(await backupStore(source, join(dir, 'old.db'))).toMatchObject({ ok: false, code: 'exists' });
    expect(await backupStore(source, join(dir, 'old.db'), { force: true })).toMatchObject({ ok: true });
    await symlink(source, join(dir, 'alias.db'));
    expect(await backupStore(source, join(dir, 'alias.db'), { force: true })).toMatchObject({ ok: false, code: 'same_file' });
  });

  it('says what is missing: the store, or the destination folder', async () => {
    expect(await backupStore(join(dir, 'none.db'), join(dir, 'x.db'))).toMatchObject({ ok: false, code: 'no_source' });
    expect(await backupStore(source, join(dir, 'no', 'such', 'x.db'))).toMatchObject({ ok: false, code: 'no_folder' });
  });
});
