// The platform layer's state on SQLite (platform-types.ts says what each method promises). Every
// write is one statement or one IMMEDIATE transaction. Storing a received message is the one write
// made durable against power loss too (synchronous FULL for that commit): it is what the platform
// is told is safe, and it does not send it again.
import type BetterSqlite3 from 'better-sqlite3';
import type { InboundMessage, PlatformName } from '../domain/platforms.js';
import type {
  ApprovedUser,
  InboundRecord,
  InboundState,
  NewOutboxMessage,
  OutboxRecord,
  OutboxState,
  PairingRequest,
  PlatformStore,
} from './platform-types.js';

type Db = BetterSqlite3.Database;
type Guarded = <T>(work: () => T) => Promise<T>;

export type InboundRow = {
  id: number;
  platform: string;
  chat_id: string;
  thread_id: string | null;
  message_id: string;
  user_id: string;
  user_name: string | null;
  text: string;
  is_direct: number;
  session_key: string;
  state: string;
  attempts: number;
  error: string | null;
  received_at: number;
  updated_at: number;
};

export type OutboxRow = {
  id: number;
  platform: string;
  chat_id: string;
  thread_id: string | null;
  text: string;
  origin: string | null;
  part: number;
  state: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  sent_message_id: string | null;
  claimed_by: number | null;
  created_at: number;
  updated_at: number;
  /** Only on a claim's rows: claimed_by was set before this claim. */
  tried_before?: boolean;
};

export type PairingRow = { platform: string; code: string; user_id: string; user_name: string | null; chat_id: string; created_at: number; expires_at: number };
export type ApprovedRow = { platform: string; user_id: string; user_name: string | null; approved_at: number };

// The columns' CHECKs and the writers keep these to the closed sets. The rows and their mappers are
// shared with the PostgreSQL store (pg/pg-platform-state.ts), whose tables have the same columns.
export function toInbound(row: InboundRow): InboundRecord {
  return {
    id: row.id,
    platform: row.platform as PlatformName,
    chatId: row.chat_id,
    threadId: row.thread_id,
    messageId: row.message_id,
    userId: row.user_id,
    userName: row.user_name,
    text: row.text,
    isDirect: row.is_direct === 1,
    sessionKey: row.session_key,
    state: row.state as InboundState,
    attempts: row.attempts,
    error: row.error,
    receivedAt: row.received_at,
    updatedAt: row.updated_at,
  };
}

export function toOutbox(row: OutboxRow): OutboxRecord {
  return {
    id: row.id,
    platform: row.platform as PlatformName,
    chatId: row.chat_id,
    threadId: row.thread_id,
    text: row.text,
    origin: row.origin,
    part: row.part,
    state: row.state as OutboxState,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    sentMessageId: row.sent_message_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    // Set by a claim: this row was claimed before (a try was made, or cut off mid-send).
    ...(row.tried_before ? { triedBefore: true } : {}),
  };
}

export function toPairing(row: PairingRow): PairingRequest {
  return {
    platform: row.platform as PlatformName,
    code: row.code,
    userId: row.user_id,
    userName: row.user_name,
    chatId: row.chat_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export function toApproved(row: ApprovedRow): ApprovedUser {
  return { platform: row.platform as PlatformName, userId: row.user_id, userName: row.user_name, approvedAt: row.approved_at };
}

export function createSqlitePlatformStore(db: Db, now: () => number, guarded: Guarded): PlatformStore {
  const s = {
    findInbound: db.prepare<[string, string, string], { id: number }>('SELECT id FROM platform_inbound WHERE platform = ? AND chat_id = ? AND message_id = ?'),
    insertInbound: db.prepare(
      `INSERT INTO platform_inbound (platform, chat_id, thread_id, message_id, user_id, user_name, text, is_direct, session_key, state, received_at, updated_at)
       VALUES (@platform, @chatId, @threadId, @messageId, @userId, @userName, @text, @isDirect, @sessionKey, @state, @receivedAt, @updatedAt)`,
    ),
    getInbound: db.prepare<[number], InboundRow>('SELECT * FROM platform_inbound WHERE id = ?'),
    // The oldest waiting message of a conversation that is not running one now.
    nextInbound: db.prepare<[], InboundRow>(
      `SELECT * FROM platform_inbound AS waiting
       WHERE state = 'queued'
         AND NOT EXISTS (SELECT 1 FROM platform_inbound AS busy WHERE busy.state = 'running' AND busy.session_key = waiting.session_key)
       ORDER BY id LIMIT 1`,
    ),
    startInbound: db.prepare<[number, number]>("UPDATE platform_inbound SET state = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ?"),
    finishInbound: db.prepare<[string, string | null, number, number]>('UPDATE platform_inbound SET state = ?, error = ?, updated_at = ? WHERE id = ?'),
    releaseInbound: db.prepare<[number, number]>("UPDATE platform_inbound SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running'"),
    recoverInbound: db.prepare<[number]>("UPDATE platform_inbound SET state = 'queued', updated_at = ? WHERE state = 'running'"),
    inboundDepth: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM platform_inbound WHERE state IN ('queued', 'running')"),

    findOrigin: db.prepare<[string, number], { id: number }>('SELECT id FROM platform_outbox WHERE origin = ? AND part = ?'),
    insertOutbox: db.prepare(
      `INSERT INTO platform_outbox (platform, chat_id, thread_id, text, origin, part, state, next_attempt_at, created_at, updated_at)
       VALUES (@platform, @chatId, @threadId, @text, @origin, @part, 'queued', @at, @at, @at)`,
    ),
    // Only the head of each chat's queue is ever due, so a chat's messages go out in order even
    // when one of them waits for a retry.
    dueOutbox: db.prepare<[string, number, number], OutboxRow>(
      `SELECT * FROM platform_outbox AS o
       WHERE state = 'queued' AND platform = ? AND next_attempt_at <= ?
         AND NOT EXISTS (
           SELECT 1 FROM platform_outbox AS earlier
           WHERE earlier.platform = o.platform AND earlier.chat_id = o.chat_id AND earlier.state IN ('queued', 'sending') AND earlier.id < o.id)
       ORDER BY id LIMIT ?`,
    ),
    startSending: db.prepare<[number, number, number]>("UPDATE platform_outbox SET state = 'sending', claimed_by = ?, updated_at = ? WHERE id = ?"),
    markSent: db.prepare<[string | null, number, number]>("UPDATE platform_outbox SET state = 'sent', attempts = attempts + 1, sent_message_id = ?, last_error = NULL, updated_at = ? WHERE id = ?"),
    scheduleRetry: db.prepare<[number, string, number, number]>("UPDATE platform_outbox SET state = 'queued', attempts = attempts + 1, next_attempt_at = ?, last_error = ?, updated_at = ? WHERE id = ?"),
    markFailed: db.prepare<[string, number, number]>("UPDATE platform_outbox SET state = 'failed', attempts = attempts + 1, last_error = ?, updated_at = ? WHERE id = ?"),
    getOutbox: db.prepare<[number], OutboxRow>('SELECT * FROM platform_outbox WHERE id = ?'),
    sendingClaims: db.prepare<[], { id: number; claimed_by: number | null }>("SELECT id, claimed_by FROM platform_outbox WHERE state = 'sending'"),
    // claimed_by stays: the next claim knows a try was cut off (it may have gone out).
    recoverOne: db.prepare<[number, number]>("UPDATE platform_outbox SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'sending'"),
    nextAttempt: db.prepare<[], { at: number | null }>("SELECT min(next_attempt_at) AS at FROM platform_outbox WHERE state = 'queued'"),
    outboxDepth: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM platform_outbox WHERE state IN ('queued', 'sending')"),
    outboxFailedSince: db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM platform_outbox WHERE state = 'failed' AND updated_at >= ?"),

    getCursor: db.prepare<[string], { value: string }>('SELECT value FROM platform_cursors WHERE platform = ?'),
    setCursor: db.prepare<[string, string, number]>(
      'INSERT INTO platform_cursors (platform, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (platform) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    ),
    sessionFor: db.prepare<[string], { session_id: string }>('SELECT session_id FROM platform_sessions WHERE session_key = ?'),
    setSession: db.prepare<[string, string, number]>(
      'INSERT INTO platform_sessions (session_key, session_id, updated_at) VALUES (?, ?, ?) ON CONFLICT (session_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at',
    ),

    pairingOfUser: db.prepare<[string, string, number], PairingRow>('SELECT * FROM platform_pairing WHERE platform = ? AND user_id = ? AND expires_at > ? ORDER BY created_at DESC LIMIT 1'),
    insertPairing: db.prepare<[string, string, string, string | null, string, number, number]>(
      'INSERT INTO platform_pairing (platform, code, user_id, user_name, chat_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    // An expired request stays until prune; its code must not block a new request that draws it.
    dropExpiredCode: db.prepare<[string, string, number]>('DELETE FROM platform_pairing WHERE platform = ? AND code = ? AND expires_at <= ?'),
    pendingAll: db.prepare<[number], PairingRow>('SELECT * FROM platform_pairing WHERE expires_at > ? ORDER BY created_at, platform, code'),
    pendingOf: db.prepare<[number, string], PairingRow>('SELECT * FROM platform_pairing WHERE expires_at > ? AND platform = ? ORDER BY created_at, code'),
    pairingByCode: db.prepare<[string, string, number], PairingRow>('SELECT * FROM platform_pairing WHERE platform = ? AND code = ? AND expires_at > ?'),
    removeUserPairings: db.prepare<[string, string]>('DELETE FROM platform_pairing WHERE platform = ? AND user_id = ?'),
    approve: db.prepare<[string, string, string | null, number]>(
      'INSERT INTO platform_approved_users (platform, user_id, user_name, approved_at) VALUES (?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at',
    ),
    getApproved: db.prepare<[string, string], ApprovedRow>('SELECT * FROM platform_approved_users WHERE platform = ? AND user_id = ?'),
    revoke: db.prepare<[string, string]>('DELETE FROM platform_approved_users WHERE platform = ? AND user_id = ?'),
    approvedAll: db.prepare<[], ApprovedRow>('SELECT * FROM platform_approved_users ORDER BY platform, approved_at, user_id'),
    approvedOf: db.prepare<[string], ApprovedRow>('SELECT * FROM platform_approved_users WHERE platform = ? ORDER BY approved_at, user_id'),

    pruneInbound: db.prepare<[number]>("DELETE FROM platform_inbound WHERE state IN ('answered', 'failed', 'ignored') AND updated_at < ?"),
    pruneOutbox: db.prepare<[number]>("DELETE FROM platform_outbox WHERE state IN ('sent', 'failed') AND updated_at < ?"),
    prunePairing: db.prepare<[number]>('DELETE FROM platform_pairing WHERE expires_at <= ?'),
  };

  const record = db.transaction((message: InboundMessage, sessionKey: string, state: 'queued' | 'ignored') => {
    const found = s.findInbound.get(message.platform, message.chatId, message.messageId);
    if (found) return { stored: false, id: found.id };
    const info = s.insertInbound.run({
      platform: message.platform,
      chatId: message.chatId,
      threadId: message.threadId,
      messageId: message.messageId,
      userId: message.userId,
      userName: message.userName,
      text: message.text,
      isDirect: message.isDirect ? 1 : 0,
      sessionKey,
      state,
      receivedAt: message.receivedAt,
      updatedAt: now(),
    });
    return { stored: true, id: Number(info.lastInsertRowid) };
  });

  const claimInbound = db.transaction((): InboundRow | undefined => {
    const row = s.nextInbound.get();
    if (!row) return undefined;
    s.startInbound.run(now(), row.id);
    return s.getInbound.get(row.id);
  });

  const insertOutbox = (messages: readonly NewOutboxMessage[]): number[] => {
    const at = now();
    return messages.map((message) => {
      if (message.origin !== null) {
        const found = s.findOrigin.get(message.origin, message.part);
        if (found) return found.id;
      }
      return Number(s.insertOutbox.run({ ...message, at }).lastInsertRowid);
    });
  };
  const enqueue = db.transaction(insertOutbox);

  const finish = db.transaction((id: number, state: 'answered' | 'failed', error: string | null, replies: readonly NewOutboxMessage[]) => {
    s.finishInbound.run(state, error, now(), id);
    insertOutbox(replies);
  });

  const claimOutbox = db.transaction((platform: PlatformName, at: number, limit: number, claimer: number): OutboxRow[] => {
    const rows = s.dueOutbox.all(platform, at, limit);
    const stamp = now();
    for (const row of rows) s.startSending.run(claimer, stamp, row.id);
    return rows.map((row) => ({ ...row, state: 'sending', claimed_by: claimer, updated_at: stamp, tried_before: row.claimed_by !== null }));
  });

  const recoverOutbox = db.transaction((isAlive: (pid: number) => boolean): number => {
    const stamp = now();
    let recovered = 0;
    for (const row of s.sendingClaims.all()) {
      if (row.claimed_by !== null && isAlive(row.claimed_by)) continue;
      recovered += s.recoverOne.run(stamp, row.id).changes;
    }
    return recovered;
  });

  const requestPairing = db.transaction((request: PairingRequest, at: number) => {
    const found = s.pairingOfUser.get(request.platform, request.userId, at);
    if (found) return { request: toPairing(found), created: false };
    s.dropExpiredCode.run(request.platform, request.code, at);
    s.insertPairing.run(request.platform, request.code, request.userId, request.userName, request.chatId, request.createdAt, request.expiresAt);
    return { request, created: true };
  });

  const approvePairing = db.transaction((platform: PlatformName, code: string, at: number): ApprovedUser | undefined => {
    const found = s.pairingByCode.get(platform, code, at);
    if (!found) return undefined;
    s.approve.run(platform, found.user_id, found.user_name, at);
    s.removeUserPairings.run(platform, found.user_id);
    return toApproved(s.getApproved.get(platform, found.user_id)!);
  });

  const prune = db.transaction((before: number, at: number) => s.pruneInbound.run(before).changes + s.pruneOutbox.run(before).changes + s.prunePairing.run(at).changes);

  /** The one commit that must survive a power cut: the platform is told the message is safe. */
  const recordDurably = (message: InboundMessage, sessionKey: string, state: 'queued' | 'ignored') => {
    db.pragma('synchronous = FULL');
    try {
      return record.immediate(message, sessionKey, state);
    } finally {
      db.pragma('synchronous = NORMAL');
    }
  };

  return {
    recordInbound: (message, sessionKey, state) => guarded(() => recordDurably(message, sessionKey, state)),
    claimNextInbound: () =>
      guarded(() => {
        const row = claimInbound.immediate();
        return row && toInbound(row);
      }),
    getInbound: (id) =>
      guarded(() => {
        const row = s.getInbound.get(id);
        return row && toInbound(row);
      }),
    finishInbound: (id, outcome, replies) => guarded(() => finish.immediate(id, outcome.state, outcome.error ?? null, replies)),
    releaseInbound: (id) => guarded(() => void s.releaseInbound.run(now(), id)),
    recoverInbound: () => guarded(() => s.recoverInbound.run(now()).changes),
    inboundDepth: () => guarded(() => s.inboundDepth.get()!.n),

    enqueue: (messages) => guarded(() => enqueue.immediate(messages)),
    claimDueOutbox: (platform, at, limit, claimer = process.pid) => guarded(() => claimOutbox.immediate(platform, at, limit, claimer).map(toOutbox)),
    markSent: (id, sentMessageId) => guarded(() => void s.markSent.run(sentMessageId, now(), id)),
    scheduleRetry: (id, nextAttemptAt, error) => guarded(() => void s.scheduleRetry.run(nextAttemptAt, error, now(), id)),
    markFailed: (id, error) => guarded(() => void s.markFailed.run(error, now(), id)),
    getOutbox: (id) =>
      guarded(() => {
        const row = s.getOutbox.get(id);
        return row && toOutbox(row);
      }),
    recoverOutbox: (isAlive = () => false) => guarded(() => recoverOutbox.immediate(isAlive)),
    nextOutboxAttempt: () => guarded(() => s.nextAttempt.get()?.at ?? undefined),
    outboxDepth: () => guarded(() => s.outboxDepth.get()!.n),
    outboxFailedSince: (since) => guarded(() => s.outboxFailedSince.get(since)!.n),

    getCursor: (platform) => guarded(() => s.getCursor.get(platform)?.value),
    setCursor: (platform, value) => guarded(() => void s.setCursor.run(platform, value, now())),
    sessionFor: (key) => guarded(() => s.sessionFor.get(key)?.session_id),
    setSession: (key, sessionId) => guarded(() => void s.setSession.run(key, sessionId, now())),

    requestPairing: (request, at) => guarded(() => requestPairing.immediate(request, at)),
    pendingPairings: (at, platform) => guarded(() => (platform ? s.pendingOf.all(at, platform) : s.pendingAll.all(at)).map(toPairing)),
    approvePairing: (platform, code, at) => guarded(() => approvePairing.immediate(platform, code, at)),
    revokeUser: (platform, userId) => guarded(() => s.revoke.run(platform, userId).changes > 0),
    isApproved: (platform, userId) => guarded(() => s.getApproved.get(platform, userId) !== undefined),
    approvedUsers: (platform) => guarded(() => (platform ? s.approvedOf.all(platform) : s.approvedAll.all()).map(toApproved)),

    prune: (before, at) => guarded(() => prune.immediate(before, at)),
  };
}
