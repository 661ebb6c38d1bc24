// The embedded Store: SQLite in $IRIS_HOME/state.db through better-sqlite3.
//
// - Several processes share the file (the CLI, the gateway, the dashboard): WAL mode (readers do
//   not wait for the writer), a busy timeout (a writer waits for another's lock instead of failing
//   at once), and every write in an IMMEDIATE transaction (the lock is taken up front, so a
//   read-then-write never fails half-way with SQLITE_BUSY).
// - The file is owner-only (0600), its -wal and -shm companions too (see private-file.ts).
// - The schema is migrated forward at open (migrations.ts); a newer file is refused untouched.
// - Errors: every expected failure is thrown as a `StoreError` whose `code` is one of
//   errors.ts's closed set ('corrupt', 'newer_schema', 'readonly', 'busy', 'not_found',
//   'conflict', 'invalid', 'io') and whose message names the file. Thrown rather than returned
//   because the Store interface (shared with a future PostgreSQL store) returns plain values;
//   each method's promise rejects with it, `openSqliteStore` too.
//
// better-sqlite3 is synchronous; the methods are async to fit the interface. A call waiting on
// another process's lock blocks this process's event loop for up to the busy timeout.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../domain/messages.js';
import { startAcceptWriter, type AcceptWriter } from './accept-writer.js';
import { startCheckpointWorker, type CheckpointWorker } from './checkpoint-worker.js';
import { StoreError, toStoreError } from './errors.js';
import { decodeMessage, encodeMessage } from './message-codec.js';
import { migrate, newerSchemaError, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { createPrivateFile, narrowToPrivate } from './private-file.js';
import { listSessions, newSessionRecord, toRecord, type SessionRow } from './session-queries.js';
import type { NewSession, SessionPatch, Store } from './types.js';
import { createSqliteUsage } from './usage-queries.js';
import { createSqliteRetention } from './retention.js';
import { createSqliteWebhookInbox } from './webhook-inbox.js';
import { createSqliteKanbanBoard } from './kanban-board.js';
import { createSqliteSkillLoads } from './skill-loads.js';
import { createSqlitePlatformStore } from './platform-state.js';
import { createSqlitePrThreads } from './pr-threads.js';
import { createSqlitePrFindings } from './pr-findings.js';
import { createSqliteSessionBrowser } from './session-browser.js';

export type SqliteStoreOptions = {
  /** How long a write waits for another process's lock before failing with 'busy'. */
  readonly busyTimeoutMs?: number;
  /** Open an existing file only; never create one (`iris usage`). */
  readonly mustExist?: boolean;
  /** Epoch milliseconds for created_at/updated_at/applied_at. */
  readonly now?: () => number;
  /**
   * For a server answering requests (the gateway): webhook accepts are written and fsync'd on a
   * thread of their own (accept-writer.ts), and the WAL is checkpointed from another thread on a
   * timer, bounded in size (checkpoint-worker.ts), instead of inside the commit that crosses the
   * size threshold.
   */
  readonly server?: boolean;
};

/** The WAL file is cut back to this size once it starts over. */
export const JOURNAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;
/**
 * A WAL with more than this in use is checkpointed to its end by the accept writer between two
 * commits. Small on purpose: the RESTART copies what the checkpoint thread has not yet, and holds
 * the next commit meanwhile. Measured under bench:webhook's 64 connections: p99 44 ms at 1 MB,
 * 50 ms at 4 MB, 100 ms at 16 MB, with the same throughput; WAL peak 5.8 MB at 1 MB.
 */
const RESTART_CHECKPOINT_BYTES = 1024 * 1024;
const CHECKPOINT_EVERY_MS = 250;

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

type Driver = typeof BetterSqlite3;
type Db = BetterSqlite3.Database;

// The driver is a native addon that finds its compiled binding relative to its own package, so
// it is loaded with Node's require at run time rather than bundled into dist/.
const loadCommonJs = createRequire(import.meta.url);

function loadDriver(path: string): Driver {
  try {
    return loadCommonJs('better-sqlite3') as Driver;
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new StoreError(
      'io',
      `cannot open ${path}: the SQLite driver (better-sqlite3) did not load (${detail}); run \`npm rebuild better-sqlite3\` in the Iris folder`,
      { cause: err },
    );
  }
}

function openDatabase(Database: Driver, path: string, busyTimeoutMs: number, now: number): Db {
  const db = new Database(path, { fileMustExist: true, timeout: busyTimeoutMs });
  try {
    db.pragma('foreign_keys = ON');
    // Read before anything is written: a newer or foreign file is left exactly as it was.
    const found = readSchemaVersion(db, path);
    if (found > SCHEMA_VERSION) throw newerSchemaError(path, found);
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL keeps the file consistent after a crash; only a power cut can lose the
    // last commits.
    db.pragma('synchronous = NORMAL');
    if (found < SCHEMA_VERSION) migrate(db, path, now);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Opens (creating unless `mustExist`) and migrates the store at `path`. */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<Store> {
  const now = options.now ?? Date.now;
  const Database = loadDriver(path);
  try {
    if (!options.mustExist) await createPrivateFile(path);
    const db = openDatabase(Database, path, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, now());
    try {
      await narrowToPrivate(path);
    } catch (err) {
      db.close();
      throw err;
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!options.server) return createSqliteStore(db, path, now);
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    const driverPath = loadCommonJs.resolve('better-sqlite3');
    let writer: AcceptWriter;
    try {
      writer = await startAcceptWriter(driverPath, path, { busyTimeoutMs, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES, restartBytes: RESTART_CHECKPOINT_BYTES });
    } catch (err) {
      db.close();
      throw err;
    }
    const checkpoints = startCheckpointWorker(driverPath, path, { everyMs: CHECKPOINT_EVERY_MS, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES });
    return createSqliteStore(db, path, now, { writer, checkpoints });
  } catch (err) {
    throw toStoreError(err, path);
  }
}

type ServerThreads = { readonly writer: AcceptWriter; readonly checkpoints: CheckpointWorker };

function createSqliteStore(db: Db, path: string, now: () => number, threads?: ServerThreads): Store {

  const statements = {
    insertSession: db.prepare(
      `INSERT INTO sessions (id, source, title, provider, model, status, created_at, updated_at)
       VALUES (@id, @source, @title, @provider, @model, @status, @createdAt, @updatedAt)`,
    ),
    getSession: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?'),
    touchSession: db.prepare<[number, string]>('UPDATE sessions SET updated_at = ? WHERE id = ?'),
    // Messages go with it (ON DELETE CASCADE); usage stays as it was (no foreign key: usage-migration.ts).
    deleteIdleSession: db.prepare<[string]>("DELETE FROM sessions WHERE id = ? AND status <> 'running'"),
    lastSeq: db.prepare<[string], { seq: number | null }>('SELECT max(seq) AS seq FROM messages WHERE session_id = ?'),
    insertMessage: db.prepare<[string, number, string, string, number]>(
      'INSERT INTO messages (session_id, seq, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    deleteMessages: db.prepare<[string]>('DELETE FROM messages WHERE session_id = ?'),
    loadMessages: db.prepare<[string], { seq: number; content: string }>(
      'SELECT seq, content FROM messages WHERE session_id = ? ORDER BY seq',
    ),
  };

  /** Runs a synchronous driver call; every failure leaves as a StoreError naming the file. */
  async function guarded<T>(work: () => T): Promise<T> {
    try {
      return work();
    } catch (err) {
      throw toStoreError(err, path);
    }
  }

  function requireSession(id: string): void {
    if (!statements.getSession.get(id)) throw new StoreError('not_found', `${path}: no session ${id}`);
  }

  /** Inserts `messages` from `firstSeq` on; a message that cannot be stored aborts the transaction. */
  function insertMessages(sessionId: string, messages: readonly Message[], firstSeq: number, at: number): void {
    messages.forEach((message, index) => {
      const encoded = encodeMessage(message);
      if (!encoded.ok) {
        throw new StoreError('invalid', `${path}: message ${index + 1} of ${messages.length} for session ${sessionId} cannot be stored: ${encoded.reason}`);
      }
      statements.insertMessage.run(sessionId, firstSeq + index, message.role, encoded.json, at);
    });
  }

  const append = db.transaction((sessionId: string, messages: readonly Message[]) => {
    requireSession(sessionId);
    if (messages.length === 0) return;
    const at = now();
    insertMessages(sessionId, messages, (statements.lastSeq.get(sessionId)?.seq ?? -1) + 1, at);
    statements.touchSession.run(at, sessionId);
  });

  const replace = db.transaction((sessionId: string, messages: readonly Message[]) => {
    requireSession(sessionId);
    const at = now();
    statements.deleteMessages.run(sessionId);
    insertMessages(sessionId, messages, 0, at);
    statements.touchSession.run(at, sessionId);
  });

  const update = db.transaction((id: string, patch: SessionPatch): SessionRow | undefined => {
    const columns = { title: 'title', provider: 'provider', model: 'model', status: 'status' } as const;
    const keys = (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => patch[key] !== undefined);
    if (keys.length > 0) {
      const assignments = keys.map((key) => `${columns[key]} = @${key}`).join(', ');
      const values = Object.fromEntries(keys.map((key) => [key, patch[key]]));
      db.prepare(`UPDATE sessions SET ${assignments}, updated_at = @updatedAt WHERE id = @id`).run({ ...values, updatedAt: now(), id });
    }
    return statements.getSession.get(id);
  });

  const removeSessions = db.transaction((ids: readonly string[]): string[] =>
    ids.filter((id) => statements.deleteIdleSession.run(id).changes === 1),
  );

  return {
    backend: 'sqlite',
    location: path,
    createSession: (input: NewSession) =>
      guarded(() => {
        const record = newSessionRecord(input, now());
        if (record.id === '') throw new StoreError('invalid', `${path}: a session id cannot be empty`);
        try {
          statements.insertSession.run(record);
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
            throw new StoreError('conflict', `${path}: a session ${record.id} exists already`, { cause: err });
          }
          throw err;
        }
        return record;
      }),

    getSession: (id) =>
      guarded(() => {
        const row = statements.getSession.get(id);
        return row && toRecord(row);
      }),

    listSessions: (query = {}) => guarded(() => listSessions(db, query)),

    deleteSessions: (ids) => guarded(() => removeSessions.immediate(ids)),

    updateSession: (id, patch) =>
      guarded(() => {
        const row = update.immediate(id, patch);
        return row && toRecord(row);
      }),

    appendMessages: (sessionId, messages) => guarded(() => append.immediate(sessionId, messages)),

    replaceMessages: (sessionId, messages) => guarded(() => replace.immediate(sessionId, messages)),

    loadMessages: (sessionId) =>
      guarded(() =>
        statements.loadMessages.all(sessionId).map((row) => {
          const decoded = decodeMessage(row.content);
          if (!decoded.ok) {
            throw new StoreError('corrupt', `${path}: message ${row.seq} of session ${sessionId} is unreadable (${decoded.reason})`);
          }
          return decoded.message;
        }),
      ),

    ...createSqliteUsage(db, guarded, path),

    webhooks: createSqliteWebhookInbox(db, now, guarded, (err) => toStoreError(err, path), threads && ((event, dedupSince) => threads.writer.accept(event, dedupSince))),

    kanban: createSqliteKanbanBoard(db, now, guarded, path),
    skillLoads: createSqliteSkillLoads(db, guarded, (message) => new StoreError('invalid', `${path}: ${message}`)),
    platforms: createSqlitePlatformStore(db, now, guarded),
    prThreads: createSqlitePrThreads(db, now, guarded),
    prFindings: createSqlitePrFindings(db, now, guarded),
    sessionBrowser: createSqliteSessionBrowser(db, guarded, (reason) => new StoreError('corrupt', `${path}: ${reason}`)),
    retention: createSqliteRetention(db, guarded),

    close: async () => {
      await threads?.writer.stop();
      await threads?.checkpoints.stop();
      await guarded(() => {
        if (db.open) db.close();
      });
    },
  };
}
