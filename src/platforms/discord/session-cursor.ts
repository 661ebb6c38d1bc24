// The Gateway session kept between processes (the platform cursor): its id, where to RESUME, the
// sequence of the last dispatch that was stored, and the bot's own id. A restart RESUMEs it, and
// Discord replays what came after that sequence, so a message that reached a process killed before
// it stored it is not lost. An unreadable cursor is no session: the restart identifies anew.
import type { PlatformLog } from '../types.js';
import type { GatewaySession } from './protocol.js';

export type SavedSession = { readonly session: GatewaySession; readonly botId: string };

/** Pure: the cursor's text as a session, or undefined. */
export function parseSavedSession(text: string | undefined): SavedSession | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.resumeUrl !== 'string' || typeof v.botId !== 'string' || !Number.isSafeInteger(v.seq) || (v.seq as number) < 0) return undefined;
  if (v.id === '' || v.botId === '' || !/^wss?:\/\//.test(v.resumeUrl)) return undefined;
  return { session: { id: v.id, resumeUrl: v.resumeUrl, seq: v.seq as number }, botId: v.botId };
}

export async function loadCursor(cursor: { load(): Promise<string | undefined> } | undefined, log: PlatformLog): Promise<string | undefined> {
  if (!cursor) return undefined;
  try {
    return await cursor.load();
  } catch (err) {
    log.warn({ platform: 'discord', err: err instanceof Error ? err.message : String(err) }, 'Discord: the saved session could not be read; identifying anew');
    return undefined;
  }
}
