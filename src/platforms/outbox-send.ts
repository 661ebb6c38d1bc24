// One operator's message into the platforms' outbox, the way `iris send` and the dashboard's Test
// button queue it: the chat given, else the platform's home channel; `null` origin, so every call
// is a new message. Whoever drains the outbox (the gateway, or `iris send` itself) sends it.
import type { Config } from '../config/schema.js';
import type { PlatformName } from '../domain/platforms.js';
import type { OutboxRecord, PlatformStore } from '../store/platform-types.js';
import { platformTargets, resolvePlatformTarget } from './delivery-target.js';
import { replyParts } from './reply-parts.js';

export type OperatorTarget = { readonly platform: PlatformName; readonly chatId: string; readonly threadId: string | null };

/** Why there is nowhere to send: the platform is off, or no chat was given and it has no home channel. */
export type NoTarget = { readonly ok: false; readonly reason: 'not_enabled' | 'no_home_channel' };

export function chooseOperatorTarget(config: Readonly<Config>, platform: PlatformName, chatId: string | null, threadId: string | null): { readonly ok: true; readonly target: OperatorTarget } | NoTarget {
  const extra = chatId ? { chat_id: chatId, ...(threadId ? { thread_id: threadId } : {}) } : {};
  const resolved = resolvePlatformTarget(platform, extra, platformTargets(config));
  if (!resolved.ok) return { ok: false, reason: resolved.error.includes('not enabled') ? 'not_enabled' : 'no_home_channel' };
  return { ok: true, target: { platform: resolved.platform, chatId: resolved.chatId, threadId: resolved.threadId } };
}

/** Queues `text` (split at the platform's limit); the outbox ids, one per part. */
export function queueOperatorMessage(platforms: PlatformStore, target: OperatorTarget, text: string): Promise<number[]> {
  return platforms.enqueue(replyParts(undefined, target.platform, target, text, null));
}

/** Where a queued message stands: `failed` when any part failed, `sent` when all were, else `queued`. */
export function outboxOutcome(records: readonly OutboxRecord[]): 'sent' | 'failed' | 'queued' {
  if (records.some((r) => r.state === 'failed')) return 'failed';
  return records.every((r) => r.state === 'sent') ? 'sent' : 'queued';
}
