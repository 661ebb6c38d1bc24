// The state.db schema, as forward-only migrations. Each runs once, in order, inside the open's
// write transaction, and is recorded in `schema_version`; a released migration is never edited,
// only followed by a new one. A file whose version is higher than the last one here was written
// by a newer Iris: it is refused before anything is written to it.
import type { Database } from 'better-sqlite3';
import { StoreError } from './errors.js';
import { SQLITE_USAGE_LEDGER } from './usage-migration.js';
import { SQLITE_PR_FINDINGS } from './pr-findings-schema.js';
import { SQLITE_RETENTION } from './retention-schema.js';

export type Migration = {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
};

// STRICT tables: SQLite checks the declared column types, as PostgreSQL will.
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, messages, usage',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        title TEXT,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_updated_at ON sessions (updated_at DESC, id);
      CREATE INDEX sessions_by_source ON sessions (source, updated_at DESC);

      -- content: the whole Message as JSON; role is a copy for queries.
      CREATE TABLE messages (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL CHECK (json_valid(content)),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) STRICT;

      -- Usage outlives its session (ON DELETE SET NULL): the totals stay right.
      CREATE TABLE usage (
        id INTEGER PRIMARY KEY,
        session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
        at INTEGER NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        task TEXT NOT NULL,
        input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
        output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
        cached_tokens INTEGER NOT NULL CHECK (cached_tokens >= 0),
        cost_usd REAL CHECK (cost_usd IS NULL OR cost_usd >= 0)
      ) STRICT;
      CREATE INDEX usage_by_at ON usage (at);
      CREATE INDEX usage_by_session ON usage (session_id);
    `,
  },
  {
    version: 2,
    description: 'webhook inbox and dedup records',
    sql: `
      -- payload: the event's JSON object as received; route_snapshot: the route (no secret) as it
      -- was at acceptance, so a later config change cannot change what an accepted event does.
      CREATE TABLE webhook_events (
        id INTEGER PRIMARY KEY,
        route TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        event TEXT NOT NULL,
        payload TEXT NOT NULL,
        route_snapshot TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('accepted', 'running', 'done', 'delivered', 'failed')),
        run_attempts INTEGER NOT NULL DEFAULT 0,
        delivery_attempts INTEGER NOT NULL DEFAULT 0,
        session_id TEXT,
        output TEXT,
        error TEXT,
        received_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      -- One index only: the worker pool's "oldest accepted" query. Every index is a B-tree write per
      -- accepted event; listing by route scans the newest rows instead, and the dedup table is
      -- pruned by a scan every 10 minutes.
      CREATE INDEX webhook_events_by_state ON webhook_events (state, id);

      CREATE TABLE webhook_dedup (
        route TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (route, delivery_id)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    description: 'webhook deliveries that may have reached the code host',
    sql: `
      -- Set just before gh is called: an event found 'done' with this set at the next start may have
      -- been posted already, so its PR is checked for the delivery marker before posting again.
      -- (A column rather than a new state value: the state's CHECK cannot change without copying
      -- the whole table.) delivery_pid: that gh's process (group), reaped at the next start if a
      -- crash left it running.
      ALTER TABLE webhook_events ADD COLUMN delivery_started_at INTEGER;
      ALTER TABLE webhook_events ADD COLUMN delivery_pid INTEGER;
    `,
  },
  {
    version: 4,
    description: 'kanban board tasks',
    sql: `
      -- A parent's deletion is not a feature; RESTRICT keeps a child from pointing at nothing.
      CREATE TABLE kanban_tasks (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL CHECK (length(title) > 0),
        body TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('triage', 'todo', 'doing', 'done', 'blocked')),
        parent_id INTEGER REFERENCES kanban_tasks (id) ON DELETE RESTRICT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX kanban_tasks_by_status ON kanban_tasks (status, id);
      CREATE INDEX kanban_tasks_by_parent ON kanban_tasks (parent_id);
    `,
  },
  {
    version: 5,
    description: 'skill loads, for the curator',
    sql: `
      -- One row per skill load (the load_skill tool, a webhook route's skill). The session is
      -- unlinked when deleted, so the curator's counts stay right.
      CREATE TABLE skill_loads (
        id INTEGER PRIMARY KEY,
        skill TEXT NOT NULL,
        session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
        at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX skill_loads_by_at ON skill_loads (at);
    `,
  },
  {
    version: 6,
    description: 'chat platforms: inbound messages, outbox, conversations, pairing',
    sql: `
      -- Every message received in a chat, stored before the platform is acknowledged. The unique
      -- key is the dedup key: a redelivered message finds its row and starts nothing.
      CREATE TABLE platform_inbound (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        thread_id TEXT,
        message_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        user_name TEXT,
        text TEXT NOT NULL,
        is_direct INTEGER NOT NULL CHECK (is_direct IN (0, 1)),
        session_key TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'answered', 'failed', 'ignored')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        received_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (platform, chat_id, message_id)
      ) STRICT;
      CREATE INDEX platform_inbound_waiting ON platform_inbound (state, session_key, id);
      CREATE INDEX platform_inbound_by_updated ON platform_inbound (updated_at);

      -- Messages to send. (origin, part) is unique when there is an origin: enqueueing the same
      -- answer twice (a retried delivery) adds nothing.
      CREATE TABLE platform_outbox (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        thread_id TEXT,
        text TEXT NOT NULL,
        origin TEXT,
        part INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        sent_message_id TEXT,
        -- The process that is sending it (while 'sending'): only a dead claimer's rows are put back.
        claimed_by INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX platform_outbox_origin ON platform_outbox (origin, part) WHERE origin IS NOT NULL;
      CREATE INDEX platform_outbox_pending ON platform_outbox (state, platform, chat_id, id);
      CREATE INDEX platform_outbox_by_updated ON platform_outbox (updated_at);

      -- Which session a conversation is in (/new points it at a fresh one).
      CREATE TABLE platform_sessions (
        session_key TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE platform_pairing (
        platform TEXT NOT NULL,
        code TEXT NOT NULL,
        user_id TEXT NOT NULL,
        user_name TEXT,
        chat_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (platform, code)
      ) STRICT;
      CREATE INDEX platform_pairing_by_user ON platform_pairing (platform, user_id, expires_at);

      -- Where a platform's receiving stands, for a restart to go on from there (Discord: the
      -- Gateway session and the sequence number of the last stored dispatch, to RESUME).
      CREATE TABLE platform_cursors (
        platform TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE platform_approved_users (
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        user_name TEXT,
        approved_at INTEGER NOT NULL,
        PRIMARY KEY (platform, user_id)
      ) STRICT;
    `,
  },
  {
    version: 7,
    description: 'pull-request reviews: a lane per PR, coalesced pushes, PR threads',
    sql: `
      -- lane: the route and PR an event is about (routes with a session per PR or comment
      -- commands); the events of one lane run one at a time, in order. run_after: a push waits
      -- out its route's coalescing window, so a burst of pushes makes one run. skipped: why an event
      -- ended without a run or a delivery (a newer push, a comment that is not a command); stored as
      -- 'delivered' with this set, as 'delivering' is (migration 3), since the state's CHECK cannot
      -- change without copying the table. deliver_as: 'summary' (the living comment), 'reply' or 'refusal'.
      ALTER TABLE webhook_events ADD COLUMN lane TEXT;
      ALTER TABLE webhook_events ADD COLUMN run_after INTEGER;
      ALTER TABLE webhook_events ADD COLUMN skipped TEXT;
      ALTER TABLE webhook_events ADD COLUMN deliver_as TEXT CHECK (deliver_as IN ('summary', 'reply', 'refusal'));
      -- Partial: events of plain routes (the ingest hot path) pay no index write for it, and a
      -- lane's finished events (kept for keep_days) are not walked by every claim.
      CREATE INDEX webhook_events_by_lane ON webhook_events (lane, id) WHERE lane IS NOT NULL AND state IN ('accepted', 'running', 'done');

      -- One row per route and PR: its session, the head last reviewed, the living summary
      -- comment, and what its comments have switched.
      CREATE TABLE pr_threads (
        route TEXT NOT NULL,
        pr_key TEXT NOT NULL,
        session_id TEXT,
        reviewed_sha TEXT,
        summary_comment_id TEXT,
        paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
        refusal_sent INTEGER NOT NULL DEFAULT 0 CHECK (refusal_sent IN (0, 1)),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (route, pr_key)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  SQLITE_USAGE_LEDGER,
  SQLITE_PR_FINDINGS,
  SQLITE_RETENTION,
];

export const SCHEMA_VERSION = MIGRATIONS.length === 0 ? 0 : MIGRATIONS[MIGRATIONS.length - 1]!.version;

const VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`;

/**
 * The file's schema version, read without writing: 0 for an empty file. An SQLite file that has
 * tables but no `schema_version` is some other program's database, and is refused.
 */
export function readSchemaVersion(db: Database, path: string): number {
  const names = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
  if (!names.some((row) => row.name === 'schema_version')) {
    if (names.length === 0) return 0;
    throw new StoreError(
      'corrupt',
      `${path} is an SQLite database of another program (tables: ${names.map((row) => row.name).join(', ')}); move it aside and Iris starts a new one`,
    );
  }
  return db.prepare<[], { version: number | null }>('SELECT max(version) AS version FROM schema_version').get()?.version ?? 0;
}

export function newerSchemaError(path: string, found: number): StoreError {
  return new StoreError(
    'newer_schema',
    `${path} was written by a newer version of Iris (schema version ${found}; this version knows up to ${SCHEMA_VERSION}); upgrade Iris to use it (the file was not changed)`,
  );
}

/**
 * Applies the pending migrations in one IMMEDIATE transaction (so two processes opening a fresh
 * file do not both migrate it); the version is read again under the lock.
 */
export function migrate(db: Database, path: string, now: number): { from: number; to: number } {
  const run = db.transaction(() => {
    db.exec(VERSION_TABLE);
    const from = readSchemaVersion(db, path);
    if (from > SCHEMA_VERSION) throw newerSchemaError(path, from);
    const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.description, now);
    }
    return { from, to: SCHEMA_VERSION };
  });
  return run.immediate();
}
