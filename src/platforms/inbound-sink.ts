// What happens to a message an adapter received, before the platform is acknowledged: access is
// decided, the message is stored (queued for a run, or ignored), and an unknown user in a direct
// message gets a pairing code. It resolves only once the store has it; a rejection tells the
// adapter not to acknowledge, so the platform sends it again (and the dedup key catches a repeat).
import { randomInt } from 'node:crypto';
import type { Store } from '../store/types.js';
import { decideAccess, newPairingCode, pairingReply, PAIRING_TTL_MS } from './access.js';
import { replyParts } from './reply-parts.js';
import { sessionKey } from './session-key.js';
import type { InboundMessage, InboundSink, PlatformAdapter, PlatformLog, PlatformName } from './types.js';

export type PlatformAccessSettings = {
  readonly allowed_users: readonly string[];
  readonly owners: readonly string[];
  readonly allow_all_users: boolean;
  readonly group_sessions_per_user: boolean;
};

export type InboundSinkDeps = {
  readonly store: Store;
  readonly log: PlatformLog;
  readonly settings: (platform: PlatformName) => PlatformAccessSettings;
  readonly adapters: ReadonlyMap<PlatformName, PlatformAdapter>;
  readonly nowMs?: () => number;
  /** A message was queued for a run. */
  readonly onQueued: () => void;
  /** Something (a pairing code) was put in the outbox. */
  readonly onReplies: () => void;
};

export function createInboundSink(deps: InboundSinkDeps): InboundSink {
  const nowMs = deps.nowMs ?? Date.now;
  return async (message: InboundMessage) => {
    const settings = deps.settings(message.platform);
    const key = sessionKey(message, settings.group_sessions_per_user);
    const approved = await deps.store.platforms.isApproved(message.platform, message.userId);
    const decision = decideAccess({ allowedUsers: settings.allowed_users, owners: settings.owners, allowAll: settings.allow_all_users }, message, approved);
    const context = { platform: message.platform, chat_id: message.chatId, user_id: message.userId, message_id: message.messageId };
    const recorded = await deps.store.platforms.recordInbound(message, key, decision === 'allow' ? 'queued' : 'ignored');
    if (!recorded.stored) {
      deps.log.debug(context, 'platform message received again; already stored');
      return;
    }
    if (decision === 'allow') {
      deps.onQueued();
      return;
    }
    if (decision === 'ignore') {
      deps.log.info(context, 'message from a user who is not allowed, in a group: no run');
      return;
    }
    const now = nowMs();
    const { request, created } = await deps.store.platforms.requestPairing(
      { platform: message.platform, userId: message.userId, userName: message.userName, chatId: message.chatId, code: newPairingCode(randomInt), createdAt: now, expiresAt: now + PAIRING_TTL_MS },
      now,
    );
    deps.log.info({ ...context, code: request.code, new_code: created }, `pairing code for an unknown user: approve with iris pairing approve ${message.platform} ${request.code}`);
    // Origin per code: the code is sent once, however many messages the user sends meanwhile.
    const origin = `pairing:${message.platform}:${message.userId}:${request.code}`;
    await deps.store.platforms.enqueue(replyParts(deps.adapters.get(message.platform), message.platform, { chatId: message.chatId, threadId: message.threadId }, pairingReply(message.platform, request.code), origin));
    deps.onReplies();
  };
}
