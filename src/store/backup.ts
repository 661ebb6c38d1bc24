// A consistent copy of state.db while the gateway may be writing to it: SQLite's online backup
// API (better-sqlite3's `db.backup`), copied in ONE step. A step-by-step backup starts over
// whenever another process commits between two steps, so under a steady stream of webhook
// accepts it might never finish; one step reads a single snapshot (a WAL reader blocks no
// writer), so it always finishes and the copy is that snapshot.
//
// The copy is written to a temp file beside the destination (0600 from its creation, since it
// holds conversations), turned into a self-contained file (journal_mode DELETE: no -wal to carry
// along; Iris switches it back to WAL when it opens it), counted, fsync'd, and only then put in
// place: linked without overwriting, or renamed over the old file with `force`. A failure leaves
// no partial file at the destination.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { link, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { errorMessage } from '../domain/error-message.js';
import { createPrivateFile } from './private-file.js';

export type BackupCounts = { readonly sessions: number; readonly webhookEvents: number };

export type BackupResult =
  | { readonly ok: true; readonly path: string; readonly bytes: number; readonly counts: BackupCounts }
  | { readonly ok: false; readonly code: 'no_source' | 'exists' | 'same_file' | 'no_folder' | 'failed'; readonly message: string };

const loadCommonJs = createRequire(import.meta.url);
/** The copy reads one snapshot; a writer holding the lock at that moment is waited for this long. */
const BUSY_TIMEOUT_MS = 5_000;
/** better-sqlite3 clamps the page count to this; it means "all remaining pages". */
const ALL_PAGES = 0x7fffffff;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return false;
      throw err;
    },
  );
}

function countRows(db: BetterSqlite3.Database, table: string): number {
  // An older schema may lack a table: it counts as empty rather than failing the backup.
  const present = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (!present?.n) return 0;
  return db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
}

async function fsyncPath(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}

async function copyTo(Database: typeof BetterSqlite3, source: string, tmp: string): Promise<BackupCounts> {
  const from = new Database(source, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    await from.backup(tmp, { progress: () => ALL_PAGES });
  } finally {
    from.close();
  }
  const copy = new Database(tmp, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return { sessions: countRows(copy, 'sessions'), webhookEvents: countRows(copy, 'webhook_events') };
  } finally {
    copy.close();
  }
}

/** link() never replaces, so a file that appeared since the caller looked is left alone. */
async function placeWithoutReplacing(tmp: string, dest: string): Promise<void> {
  try {
    await link(tmp, dest);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // File systems without hard links (FAT, some network mounts): check, then rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (await exists(dest)) throw Object.assign(new Error(`${dest} exists`), { code: 'EEXIST' });
    await rename(tmp, dest);
    return;
  }
  await rm(tmp, { force: true });
}

/** Copies the store at `source` to `destination` (a file path; relative to the current folder). */
export async function backupStore(source: string, destination: string, options: { force?: boolean } = {}): Promise<BackupResult> {
  const dest = resolve(destination);
  if (!(await exists(source))) return { ok: false, code: 'no_source', message: `nothing to back up: ${source} does not exist yet` };
  if (!(await exists(dirname(dest)))) return { ok: false, code: 'no_folder', message: `cannot write ${dest}: the folder ${dirname(dest)} does not exist` };
  const destExists = await exists(dest);
  // Even with --force: "backing up" over the live file would destroy it.
  if (destExists && (await realpath(dest)) === (await realpath(source))) {
    return { ok: false, code: 'same_file', message: `${dest} is the store itself; choose another file` };
  }
  if (destExists && !options.force) return { ok: false, code: 'exists', message: `${dest} exists already; choose another file, or replace it with --force` };

  const tmp = join(dirname(dest), `.${basename(dest)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await createPrivateFile(tmp);
    const counts = await copyTo(loadCommonJs('better-sqlite3') as typeof BetterSqlite3, source, tmp);
    await fsyncPath(tmp, 'r+');
    if (options.force) await rename(tmp, dest);
    else await placeWithoutReplacing(tmp, dest);
    await fsyncPath(dirname(dest), 'r');
    const info = await stat(dest);
    return { ok: true, path: dest, bytes: info.size, counts };
  } catch (err) {
    await rm(tmp, { force: true });
    for (const suffix of ['-journal', '-wal', '-shm']) await rm(`${tmp}${suffix}`, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { ok: false, code: 'exists', message: `${dest} exists already; choose another file, or replace it with --force` };
    return { ok: false, code: 'failed', message: `the backup of ${source} to ${dest} failed: ${errorMessage(err)}` };
  }
}
