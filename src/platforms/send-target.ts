// `iris send --to <platform>[:<chat_id>[:<thread_id>]]`, read. Pure.
import { CHAT_PLATFORMS, isPlatformName, type PlatformName } from '../domain/platforms.js';

export type SendTarget = { readonly platform: PlatformName; readonly chatId: string | null; readonly threadId: string | null };

export function parseSendTarget(text: string): { ok: true; target: SendTarget } | { ok: false; error: string } {
  const [platform = '', chat = '', thread = '', ...rest] = text.trim().split(':');
  if (!isPlatformName(platform)) return { ok: false, error: `--to: "${platform}" is not a platform (one of ${CHAT_PLATFORMS.join(', ')}), as <platform>[:<chat_id>[:<thread_id>]]` };
  if (rest.length > 0) return { ok: false, error: `--to: "${text}" has too many parts; use <platform>[:<chat_id>[:<thread_id>]]` };
  if (thread !== '' && chat === '') return { ok: false, error: '--to: a thread needs a chat: <platform>:<chat_id>:<thread_id>' };
  return { ok: true, target: { platform, chatId: chat.trim() || null, threadId: thread.trim() || null } };
}
