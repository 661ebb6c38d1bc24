// Sessions and their messages on PostgreSQL: the same rules as sqlite-store.ts (the same
// row shapes, filters and checks), each write one statement or one transaction.
import type { Message } from '../../domain/messages.js';
import { StoreError } from '../errors.js';
import { decodeMessage, encodeMessage } from '../message-codec.js';
import { newSessionRecord, sessionFilters, toRecord, type SessionRow } from '../session-queries.js';
import type { Store } from '../types.js';
import { named } from './pg-named.js';
import { inTransaction, sqlState, type PgClient, type PgPool } from './pg-pool.js';

type SessionMethods = Pick<
  Store,
  'createSession' | 'getSession' | 'listSessions' | 'updateSession' | 'deleteSessions' | 'appendMessages' | 'replaceMessages' | 'loadMessages'
>;

/**
 * `guarded` turns any failure of `work` into a StoreError naming the database; `where` is that
 * name (the URL without its password).
 */
export function createPgSessions(pool: PgPool, now: () => number, guarded: <T>(work: () => Promise<T>) => Promise<T>, where: string): SessionMethods {
  async function requireSession(client: PgClient, id: string): Promise<void> {
    // FOR UPDATE: appends to one session are serialised, so two never take the same seq.
    const found = await client.query('SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE', [id]);
    if (found.rowCount === 0) throw new StoreError('not_found', `${where}: no session ${id}`);
  }

  async function insertMessages(client: PgClient, sessionId: string, messages: readonly Message[], firstSeq: number, at: number): Promise<void> {
    const rows: unknown[] = [];
    messages.forEach((message, index) => {
      const encoded = encodeMessage(message);
      if (!encoded.ok) {
        throw new StoreError('invalid', `${where}: message ${index + 1} of ${messages.length} for session ${sessionId} cannot be stored: ${encoded.reason}`);
      }
      rows.push(sessionId, firstSeq + index, message.role, encoded.json, at);
    });
    // One statement for the whole batch, in chunks well under the 65,535-parameter limit.
    const CHUNK = 1_000;
    for (let start = 0; start < messages.length; start += CHUNK) {
      const count = Math.min(CHUNK, messages.length - start);
      const tuples = Array.from({ length: count }, (_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`);
      await client.query(`INSERT INTO messages (session_id, seq, role, content, created_at) VALUES ${tuples.join(', ')}`, rows.slice(start * 5, (start + count) * 5));
    }
  }

  return {
    createSession: (input) =>
      guarded(async () => {
        const record = newSessionRecord(input, now());
        if (record.id === '') throw new StoreError('invalid', `${where}: a session id cannot be empty`);
        try {
          await pool.query(
            'INSERT INTO sessions (id, source, title, provider, model, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [record.id, record.source, record.title, record.provider, record.model, record.status, record.createdAt, record.updatedAt],
          );
        } catch (err) {
          if (sqlState(err) === '23505') throw new StoreError('conflict', `${where}: a session ${record.id} exists already`, { cause: err });
          throw err;
        }
        return record;
      }),

    getSession: (id) =>
      guarded(async () => {
        const result = await pool.query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
        const row = result.rows[0];
        return row && toRecord(row);
      }),

    listSessions: (query = {}) =>
      guarded(async () => {
        const filter = sessionFilters(query);
        const limit = query.limit === undefined ? '' : 'LIMIT @limit';
        const { text, values } = named(
          `SELECT s.*, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count
           FROM sessions s ${filter.sql} ORDER BY s.updated_at DESC, s.id ${limit}`,
          { ...filter.params, limit: query.limit ?? null },
        );
        // Every text column is COLLATE "C" (pg-migrations.ts): the prefix ranges and the order are
        // byte order, as on SQLite, whatever the database's locale.
        const result = await pool.query<SessionRow & { message_count: number }>(text, values);
        return result.rows.map((row) => ({ ...toRecord(row), messageCount: row.message_count }));
      }),

    updateSession: (id, patch) =>
      guarded(async () => {
        const columns = { title: 'title', provider: 'provider', model: 'model', status: 'status' } as const;
        const keys = (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => patch[key] !== undefined);
        if (keys.length > 0) {
          const assignments = keys.map((key) => `${columns[key]} = @${key}`).join(', ');
          const { text, values } = named(`UPDATE sessions SET ${assignments}, updated_at = @updatedAt WHERE id = @id`, {
            ...Object.fromEntries(keys.map((key) => [key, patch[key]])),
            updatedAt: now(),
            id,
          });
          await pool.query(text, values);
        }
        const result = await pool.query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
        const row = result.rows[0];
        return row && toRecord(row);
      }),

    deleteSessions: (ids) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const deleted: string[] = [];
          for (const id of ids) {
            const result = await client.query("DELETE FROM sessions WHERE id = $1 AND status <> 'running'", [id]);
            if (result.rowCount === 1) deleted.push(id);
          }
          return deleted;
        }),
      ),

    appendMessages: (sessionId, messages) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          await requireSession(client, sessionId);
          if (messages.length === 0) return;
          const at = now();
          const last = await client.query<{ seq: number | null }>('SELECT max(seq) AS seq FROM messages WHERE session_id = $1', [sessionId]);
          await insertMessages(client, sessionId, messages, (last.rows[0]?.seq ?? -1) + 1, at);
          await client.query('UPDATE sessions SET updated_at = $1 WHERE id = $2', [at, sessionId]);
        }),
      ),

    replaceMessages: (sessionId, messages) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          await requireSession(client, sessionId);
          const at = now();
          await client.query('DELETE FROM messages WHERE session_id = $1', [sessionId]);
          await insertMessages(client, sessionId, messages, 0, at);
          await client.query('UPDATE sessions SET updated_at = $1 WHERE id = $2', [at, sessionId]);
        }),
      ),

    loadMessages: (sessionId) =>
      guarded(async () => {
        const result = await pool.query<{ seq: number; content: string }>('SELECT seq, content FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
        return result.rows.map((row) => {
          const decoded = decodeMessage(row.content);
          if (!decoded.ok) throw new StoreError('corrupt', `${where}: message ${row.seq} of session ${sessionId} is unreadable (${decoded.reason})`);
          return decoded.message;
        });
      }),
  };
}
