// An answer made into outbox messages: in the text form the platform shows (plain text for SMS and
// Signal), split at its limit, each part numbered so that enqueueing the same answer twice adds
// nothing. Pure.
import { MESSAGE_LIMITS, type PlatformName } from '../domain/platforms.js';
import type { NewOutboxMessage } from '../store/platform-types.js';
import { markdownToPlainText } from './plain-text.js';
import { splitMessage } from './split.js';
import type { PlatformAdapter } from './types.js';

/** Platforms that show text only: Markdown is stripped before splitting (it only gets shorter). */
const PLAIN_TEXT: ReadonlySet<PlatformName> = new Set(['sms', 'signal']);

export function prepareText(platform: PlatformName, markdown: string, adapter?: Pick<PlatformAdapter, 'prepare'>): string {
  if (adapter?.prepare) return adapter.prepare(markdown);
  return PLAIN_TEXT.has(platform) ? markdownToPlainText(markdown) : markdown;
}

export function replyParts(
  adapter: Pick<PlatformAdapter, 'prepare'> | undefined,
  platform: PlatformName,
  target: { readonly chatId: string; readonly threadId: string | null },
  markdown: string,
  origin: string | null,
): NewOutboxMessage[] {
  const text = prepareText(platform, markdown, adapter);
  return splitMessage(text === '' ? '(empty)' : text, MESSAGE_LIMITS[platform]).map((part, index) => ({
    platform,
    chatId: target.chatId,
    threadId: target.threadId,
    text: part,
    origin,
    part: index,
  }));
}
