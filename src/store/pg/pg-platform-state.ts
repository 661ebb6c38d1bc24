// The platform layer's state on PostgreSQL (`store.platforms`; platform-types.ts says what each
// method promises, platform-state.ts is the SQLite twin): inbound messages, the outbox, pairing,
// and here the small rest (cursors, conversation sessions, pruning).
import { processIsAlive } from '../../domain/process-alive.js';
import type { PlatformStore } from '../platform-types.js';
import type { PgContext } from './pg-context.js';
import { createPgInbound } from './pg-platform-inbound.js';
import { createPgOutbox } from './pg-platform-outbox.js';
import { createPgPairing } from './pg-platform-pairing.js';
import { inTransaction } from './pg-pool.js';

/** `isAlive`: whether a process on this host lives (recoverInbound takes back a dead one's runs). */
export function createPgPlatformStore(ctx: PgContext, isAlive: (pid: number) => boolean = processIsAlive): PlatformStore {
  const { pool, guarded, now } = ctx;
  return {
    ...createPgInbound(ctx, isAlive),
    ...createPgOutbox(ctx),
    ...createPgPairing(ctx),

    getCursor: (platform) =>
      guarded(async () => (await pool.query<{ value: string }>('SELECT value FROM platform_cursors WHERE platform = $1', [platform])).rows[0]?.value),
    setCursor: (platform, value) =>
      guarded(async () => {
        await pool.query(
          'INSERT INTO platform_cursors (platform, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (platform) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
          [platform, value, now()],
        );
      }),
    sessionFor: (key) =>
      guarded(async () => (await pool.query<{ session_id: string }>('SELECT session_id FROM platform_sessions WHERE session_key = $1', [key])).rows[0]?.session_id),
    setSession: (key, sessionId) =>
      guarded(async () => {
        await pool.query(
          'INSERT INTO platform_sessions (session_key, session_id, updated_at) VALUES ($1, $2, $3) ON CONFLICT (session_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at',
          [key, sessionId, now()],
        );
      }),

    prune: (before, at) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const counts = [
            await client.query("DELETE FROM platform_inbound WHERE state IN ('answered', 'failed', 'ignored') AND updated_at < $1", [before]),
            await client.query("DELETE FROM platform_outbox WHERE state IN ('sent', 'failed') AND updated_at < $1", [before]),
            await client.query('DELETE FROM platform_pairing WHERE expires_at <= $1', [at]),
          ];
          return counts.reduce((sum, result) => sum + (result.rowCount ?? 0), 0);
        }),
      ),
  };
}
