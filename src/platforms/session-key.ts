// Which conversation a message belongs to (DECISIONS § Chat platforms): `<platform>:<chat_id>`,
// plus `:<thread_id>` where the platform has threads, plus `/<user_id>` in a group when each user
// has a session of their own (`group_sessions_per_user`, the default). Pure.
import type { InboundMessage } from './types.js';

export function sessionKey(message: Pick<InboundMessage, 'platform' | 'chatId' | 'threadId' | 'userId' | 'isDirect'>, perUserInGroups: boolean): string {
  const base = `${message.platform}:${message.chatId}${message.threadId ? `:${message.threadId}` : ''}`;
  return !message.isDirect && perUserInGroups ? `${base}/${message.userId}` : base;
}
