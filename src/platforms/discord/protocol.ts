// The Gateway's frames and the decisions around them, pure: what to send after HELLO (IDENTIFY
// for a new session, RESUME for one that can go on), what a close code or INVALID_SESSION means
// for the next connection, and the frames' shapes.
// https://discord.com/developers/docs/events/gateway, …/topics/opcodes-and-status-codes

export const OP = Object.freeze({
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
});

/** Gateway intents (bit flags). MESSAGE_CONTENT is privileged: it must be enabled for the bot in the Developer Portal. */
export const INTENTS = Object.freeze({
  GUILDS: 1 << 0,
  GUILD_MESSAGES: 1 << 9,
  DIRECT_MESSAGES: 1 << 12,
  MESSAGE_CONTENT: 1 << 15,
});

export const IRIS_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.DIRECT_MESSAGES | INTENTS.MESSAGE_CONTENT;

export type GatewayPayload = { readonly op: number; readonly d: unknown; readonly s: number | null; readonly t: string | null };

/** What Iris needs to RESUME: the session, where to resume it, and the last sequence handled. */
export type GatewaySession = { readonly id: string; readonly resumeUrl: string; readonly seq: number };

/** One text frame read, or null when it is not a Gateway payload. */
export function parsePayload(text: string): GatewayPayload | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { op, d, s, t } = raw as Record<string, unknown>;
  if (typeof op !== 'number') return null;
  return { op, d: d ?? null, s: typeof s === 'number' ? s : null, t: typeof t === 'string' ? t : null };
}

/** ?v=10&encoding=json added to the URL from GET /gateway/bot or READY's resume_gateway_url. */
export function gatewayConnectUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set('v', '10');
  url.searchParams.set('encoding', 'json');
  return url.toString();
}

export function identifyFrame(token: string, intents = IRIS_INTENTS) {
  return { op: OP.IDENTIFY, d: { token, intents, properties: { os: process.platform, browser: 'iris', device: 'iris' } } };
}

export function resumeFrame(token: string, session: GatewaySession) {
  return { op: OP.RESUME, d: { token, session_id: session.id, seq: session.seq } };
}

export function heartbeatFrame(lastSeq: number | null) {
  return { op: OP.HEARTBEAT, d: lastSeq };
}

/** After HELLO: RESUME when there is a session to go on with, else IDENTIFY. */
export function openingFrame(token: string, session: GatewaySession | null) {
  return session ? resumeFrame(token, session) : identifyFrame(token);
}

/** READY's d read: the session and the bot's own user id, or null when a field is missing. */
export function readReady(d: unknown): { sessionId: string; resumeUrl: string; botId: string; botName: string | null } | null {
  if (d === null || typeof d !== 'object') return null;
  const { session_id: sessionId, resume_gateway_url: resumeUrl, user } = d as Record<string, unknown>;
  const u = (user ?? {}) as Record<string, unknown>;
  if (typeof sessionId !== 'string' || typeof resumeUrl !== 'string' || typeof u.id !== 'string') return null;
  return { sessionId, resumeUrl, botId: u.id, botName: typeof u.username === 'string' ? u.username : null };
}

/**
 * What a close means for the next connection. `fatal`: reconnecting cannot help (the token, the
 * intents, the version); `identify`: the session is gone, start a new one; `resume`: go on.
 */
export type CloseDecision = { readonly next: 'fatal' | 'identify' | 'resume'; readonly detail: string };

const FATAL: Readonly<Record<number, string>> = {
  4004: 'token rejected (4004 Authentication failed)',
  4010: 'invalid shard (4010)',
  4011: 'sharding required (4011): the bot is in too many guilds for one connection',
  4012: 'invalid API version (4012)',
  4013: 'invalid intents (4013)',
  4014: 'disallowed intents (4014): enable the Message Content intent for the bot in the Discord Developer Portal',
};

export function closeDecision(code: number, reason = ''): CloseDecision {
  const fatal = FATAL[code];
  if (fatal !== undefined) return { next: 'fatal', detail: fatal };
  const said = `closed (${code}${reason ? ` ${reason}` : ''})`;
  // 4007 invalid seq, 4009 session timed out: the session cannot be resumed.
  if (code === 4007 || code === 4009) return { next: 'identify', detail: said };
  return { next: 'resume', detail: said };
}

/** INVALID_SESSION: d true, the session may still be resumed; false, IDENTIFY anew. */
export function invalidSessionResumable(d: unknown): boolean {
  return d === true;
}

/** The first heartbeat goes after interval × jitter (0..1), the rest every interval. */
export function firstHeartbeatDelay(intervalMs: number, jitter: number): number {
  return Math.floor(intervalMs * Math.min(1, Math.max(0, jitter)));
}
