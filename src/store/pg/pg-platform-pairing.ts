// Pairing requests and approved users on PostgreSQL, with the rules of platform-state.ts. A user's
// requests are serialised by an advisory lock on (platform, user), so two processes answering the
// same user at once store one request, not two.
import type { PlatformStore } from '../platform-types.js';
import { toApproved, toPairing, type ApprovedRow, type PairingRow } from '../platform-state.js';
import type { PgContext } from './pg-context.js';
import { inTransaction } from './pg-pool.js';

type PairingMethods = Pick<PlatformStore, 'requestPairing' | 'pendingPairings' | 'approvePairing' | 'revokeUser' | 'isApproved' | 'approvedUsers'>;

const LOCK_USER = "SELECT pg_advisory_xact_lock(hashtextextended('iris:pairing:' || current_schema() || ':' || $1 || ':' || $2, 0))";
const GET_APPROVED = 'SELECT * FROM platform_approved_users WHERE platform = $1 AND user_id = $2';

export function createPgPairing(ctx: PgContext): PairingMethods {
  const { pool, guarded } = ctx;
  return {
    requestPairing: (request, at) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          await client.query(LOCK_USER, [request.platform, request.userId]);
          const found = (
            await client.query<PairingRow>('SELECT * FROM platform_pairing WHERE platform = $1 AND user_id = $2 AND expires_at > $3 ORDER BY created_at DESC LIMIT 1', [
              request.platform,
              request.userId,
              at,
            ])
          ).rows[0];
          if (found) return { request: toPairing(found), created: false };
          // An expired request stays until prune; its code must not block a new request that draws it.
          await client.query('DELETE FROM platform_pairing WHERE platform = $1 AND code = $2 AND expires_at <= $3', [request.platform, request.code, at]);
          await client.query('INSERT INTO platform_pairing (platform, code, user_id, user_name, chat_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
            request.platform,
            request.code,
            request.userId,
            request.userName,
            request.chatId,
            request.createdAt,
            request.expiresAt,
          ]);
          return { request, created: true };
        }),
      ),
    pendingPairings: (at, platform) =>
      guarded(async () => {
        const result =
          platform === undefined
            ? await pool.query<PairingRow>('SELECT * FROM platform_pairing WHERE expires_at > $1 ORDER BY created_at, platform, code', [at])
            : await pool.query<PairingRow>('SELECT * FROM platform_pairing WHERE expires_at > $1 AND platform = $2 ORDER BY created_at, code', [at, platform]);
        return result.rows.map(toPairing);
      }),
    approvePairing: (platform, code, at) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const found = (await client.query<PairingRow>('SELECT * FROM platform_pairing WHERE platform = $1 AND code = $2 AND expires_at > $3 FOR UPDATE', [platform, code, at])).rows[0];
          if (!found) return undefined;
          await client.query(
            `INSERT INTO platform_approved_users (platform, user_id, user_name, approved_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at`,
            [platform, found.user_id, found.user_name, at],
          );
          await client.query('DELETE FROM platform_pairing WHERE platform = $1 AND user_id = $2', [platform, found.user_id]);
          return toApproved((await client.query<ApprovedRow>(GET_APPROVED, [platform, found.user_id])).rows[0]!);
        }),
      ),
    revokeUser: (platform, userId) =>
      guarded(async () => ((await pool.query('DELETE FROM platform_approved_users WHERE platform = $1 AND user_id = $2', [platform, userId])).rowCount ?? 0) > 0),
    isApproved: (platform, userId) => guarded(async () => (await pool.query(GET_APPROVED, [platform, userId])).rows.length > 0),
    approvedUsers: (platform) =>
      guarded(async () => {
        const result =
          platform === undefined
            ? await pool.query<ApprovedRow>('SELECT * FROM platform_approved_users ORDER BY platform, approved_at, user_id')
            : await pool.query<ApprovedRow>('SELECT * FROM platform_approved_users WHERE platform = $1 ORDER BY approved_at, user_id', [platform]);
        return result.rows.map(toApproved);
      }),
  };
}
