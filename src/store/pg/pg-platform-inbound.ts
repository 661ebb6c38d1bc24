// Received chat messages on PostgreSQL (platform-types.ts says what each method promises), shared
// by every process. A conversation runs one message at a time across all of them: a claim takes an
// advisory lock on the conversation for its transaction and looks again under it, so two
// processes never start two messages of one conversation, nor one message twice. A running
// message is held by its worker under a lease; once the lease lapses (the worker died) the
// message is claimable again.
import type { InboundMessage } from '../../domain/platforms.js';
import type { InboundState, NewOutboxMessage, PlatformStore } from '../platform-types.js';
import { toInbound, type InboundRow } from '../platform-state.js';
import type { PgContext } from './pg-context.js';
import { insertOutbox } from './pg-platform-outbox.js';
import { inTransaction, type PgClient } from './pg-pool.js';
import { mayRecoverInbound, type Reclaimer } from './pg-reclaim.js';
import { notifySql } from './pg-wakeups.js';
import { parseWorkerId } from './pg-worker-id.js';

type InboundMethods = Pick<PlatformStore, 'recordInbound' | 'claimNextInbound' | 'getInbound' | 'finishInbound' | 'releaseInbound' | 'recoverInbound' | 'inboundDepth'>;

type InboundRowOnPg = InboundRow & { worker: string | null; lease_until: number | null };

const FIND = 'SELECT id FROM platform_inbound WHERE platform = $1 AND chat_id = $2 AND message_id = $3';

// The oldest message that may run: queued, or running under a lapsed lease, in a conversation
// no one else runs now (a running message whose lease holds), outside the conversations this
// claim has passed over already.
const CANDIDATE = `SELECT * FROM platform_inbound AS waiting
  WHERE (state = 'queued' OR (state = 'running' AND (lease_until IS NULL OR lease_until < $1)))
    AND NOT (session_key = ANY($2::text[]))
    AND NOT EXISTS (
      SELECT 1 FROM platform_inbound AS busy
      WHERE busy.session_key = waiting.session_key AND busy.id <> waiting.id AND busy.state = 'running' AND busy.lease_until >= $1)
  ORDER BY id LIMIT 1
  FOR UPDATE OF waiting SKIP LOCKED`;

// Held only by the claiming transaction: a second claimer of the conversation passes it over.
const LOCK_CONVERSATION = "SELECT pg_try_advisory_xact_lock(hashtextextended('iris:inbound:' || current_schema() || ':' || $1, 0)) AS locked";

// Under the lock, with a fresh snapshot: is the conversation running a message (claimed and
// committed meanwhile), or is an older message of it waiting (locked by a claimer that has not
// reached the lock yet)? Either way this candidate is not next.
const RECHECK = `SELECT count(*) AS n FROM platform_inbound
  WHERE session_key = $1 AND id <> $2
    AND ((state = 'running' AND lease_until >= $3) OR (id < $2 AND state IN ('queued', 'running')))`;

const START = `UPDATE platform_inbound SET state = 'running', attempts = attempts + 1, worker = $2, lease_until = $3, updated_at = $4
  WHERE id = $1 RETURNING *`;

/** How often a claim starts over after another claimer held a conversation's lock. */
const CLAIM_ROUNDS = 5;
const CLAIM_PAUSE_MS = 5;

type ClaimRound = { readonly row: InboundRowOnPg | undefined; readonly contended: boolean };

async function claimRound(client: PgClient, ctx: PgContext): Promise<ClaimRound> {
  const at = ctx.now();
  const passedOver: string[] = [];
  let contended = false;
  for (;;) {
    const candidate = (await client.query<InboundRowOnPg>(CANDIDATE, [at, passedOver])).rows[0];
    if (!candidate) return { row: undefined, contended };
    const key = candidate.session_key;
    const locked = (await client.query<{ locked: boolean }>(LOCK_CONVERSATION, [key])).rows[0]!.locked;
    if (!locked) contended = true;
    else if ((await client.query<{ n: number }>(RECHECK, [key, candidate.id, at])).rows[0]!.n === 0) {
      return { row: (await client.query<InboundRowOnPg>(START, [candidate.id, ctx.worker, at + ctx.leaseMs, at])).rows[0], contended };
    }
    passedOver.push(key);
  }
}

/**
 * Two claimers can pass over one conversation each because of the other (one holds its oldest
 * message's row, the other its lock), and nothing would wake either for it again: so a claim that
 * found a lock taken starts over in a new transaction, once the other has committed.
 */
async function claimOne(ctx: PgContext): Promise<InboundRowOnPg | undefined> {
  for (let round = 1; ; round++) {
    const { row, contended } = await inTransaction(ctx.pool, (client) => claimRound(client, ctx));
    if (row || !contended || round === CLAIM_ROUNDS) return row;
    // The other claim's transaction is a few statements long: a short pause lets it commit.
    await new Promise((resolve) => setTimeout(resolve, CLAIM_PAUSE_MS * round));
  }
}

async function record(client: PgClient, ctx: PgContext, message: InboundMessage, sessionKey: string, state: InboundState) {
  // What the platform is told is safe must survive a crash of the server: a durable commit,
  // whatever the session's default.
  await client.query('SET LOCAL synchronous_commit = on');
  const key = [message.platform, message.chatId, message.messageId];
  // Looked up first, so a redelivery takes no id from the sequence.
  const found = (await client.query<{ id: number }>(FIND, key)).rows[0];
  if (found) return { stored: false, id: found.id };
  const inserted = await client.query<{ id: number }>(
    `INSERT INTO platform_inbound (platform, chat_id, thread_id, message_id, user_id, user_name, text, is_direct, session_key, state, received_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (platform, chat_id, message_id) DO NOTHING RETURNING id`,
    [message.platform, message.chatId, message.threadId, message.messageId, message.userId, message.userName, message.text, message.isDirect ? 1 : 0, sessionKey, state, message.receivedAt, ctx.now()],
  );
  const id = inserted.rows[0]?.id;
  // Another process stored the same delivery meanwhile: the insert waited for its commit.
  if (id === undefined) return { stored: false, id: (await client.query<{ id: number }>(FIND, key)).rows[0]!.id };
  if (state === 'queued') await client.query(notifySql('inbound', ctx.schema));
  return { stored: true, id };
}

export function createPgInbound(ctx: PgContext, isAlive: (pid: number) => boolean): InboundMethods {
  const { pool, guarded, now } = ctx;
  const self = parseWorkerId(ctx.worker)!;
  const wakeRunners = notifySql('inbound', ctx.schema);
  const wakeDrains = notifySql('outbox', ctx.schema);

  async function finish(client: PgClient, id: number, state: 'answered' | 'failed', error: string | null, replies: readonly NewOutboxMessage[]) {
    const at = now();
    await client.query('UPDATE platform_inbound SET state = $1, error = $2, updated_at = $3 WHERE id = $4', [state, error, at, id]);
    await insertOutbox(client, replies, at);
    if (replies.length > 0) await client.query(wakeDrains);
  }

  return {
    recordInbound: (message, sessionKey, state) => guarded(() => inTransaction(pool, (client) => record(client, ctx, message, sessionKey, state))),
    claimNextInbound: () =>
      guarded(async () => {
        const row = await claimOne(ctx);
        return row && toInbound(row);
      }),
    getInbound: (id) =>
      guarded(async () => {
        const row = (await pool.query<InboundRowOnPg>('SELECT * FROM platform_inbound WHERE id = $1', [id])).rows[0];
        return row && toInbound(row);
      }),
    finishInbound: (id, outcome, replies) => guarded(() => inTransaction(pool, (client) => finish(client, id, outcome.state, outcome.error ?? null, replies))),
    releaseInbound: (id) =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const result = await client.query(
            // Only while this process holds it: once its lease lapsed another worker may run it now.
            "UPDATE platform_inbound SET state = 'queued', worker = NULL, lease_until = NULL, updated_at = $1 WHERE id = $2 AND state = 'running' AND (worker IS NULL OR worker = $3)",
            [now(), id, ctx.worker],
          );
          // Another process may run it now (this one is shutting down).
          if ((result.rowCount ?? 0) > 0) await client.query(wakeRunners);
        }),
      ),
    recoverInbound: () =>
      guarded(() =>
        inTransaction(pool, async (client) => {
          const stamp = now();
          const by: Reclaimer = { worker: ctx.worker, self, now: stamp, isAlive };
          // Rows locked elsewhere are being claimed or renewed right now: not abandoned.
          const held = await client.query<{ id: number; worker: string | null; lease_until: number | null }>(
            "SELECT id, worker, lease_until FROM platform_inbound WHERE state = 'running' FOR UPDATE SKIP LOCKED",
          );
          const ids = held.rows.filter((row) => mayRecoverInbound({ worker: row.worker, leaseUntil: row.lease_until }, by)).map((row) => row.id);
          if (ids.length === 0) return 0;
          const result = await client.query(
            "UPDATE platform_inbound SET state = 'queued', worker = NULL, lease_until = NULL, updated_at = $1 WHERE id = ANY($2::bigint[]) AND state = 'running'",
            [stamp, ids],
          );
          await client.query(wakeRunners);
          return result.rowCount ?? 0;
        }),
      ),
    inboundDepth: () => guarded(async () => (await pool.query<{ n: number }>("SELECT count(*) AS n FROM platform_inbound WHERE state IN ('queued', 'running')")).rows[0]!.n),
  };
}
