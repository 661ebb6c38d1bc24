// The Discord adapter: the Gateway in (gateway.ts), POST /channels/{id}/messages out, the agent's
// Markdown sent as it is (Discord renders Markdown itself). It knows Discord and nothing of the
// agent; the platform layer decides who may talk, keeps sessions and the outbox.
import { createBackgroundLoop } from '../background-loop.js';
import type { Env } from '../../config/home.js';
import type { DiscordConfig } from '../../config/schema.js';
import { sleep } from '../../runtime/sleep.js';
import type { ConnectionState, InboundSink, OutboundMessage, PlatformAdapter, PlatformCheck, PlatformCursor, PlatformLog, SendResult } from '../types.js';
import { DEFAULT_BACKOFF, runGateway, type Backoff, type Dispatch } from './gateway.js';
import type { GatewaySession } from './protocol.js';
import { loadCursor, parseSavedSession } from './session-cursor.js';
import { parseMessageCreate, placeInChannel, readChannel, type ChannelInfo } from './messages.js';
import { createDiscordRest, type DiscordRest } from './rest.js';
import { classifySendFailure, noteRateLimit, waitBeforeSend } from './send-result.js';
import { TOKEN_ENV } from './token.js';

export { TOKEN_ENV } from './token.js';

const MISSING_TOKEN = `${TOKEN_ENV} is not set in .env`;
const QUICK_CALL_MS = 10_000;
/** Channels known (thread or not): bounded, the oldest forgotten first. */
const CHANNEL_CACHE_MAX = 1000;

export type DiscordAdapterOptions = {
  readonly extra: Pick<DiscordConfig['extra'], 'api_base'>;
  readonly env: Env;
  readonly log: PlatformLog;
  readonly fetch?: typeof fetch;
  readonly backoff?: Backoff;
  readonly nowMs?: () => number;
  /** 0..1 for the first heartbeat's delay (tests fix it). */
  readonly jitter?: () => number;
  /** Where the Gateway session is kept between processes, so a restart RESUMEs it (nothing sent meanwhile is lost). */
  readonly cursor?: PlatformCursor;
};

type BotUser = { readonly id?: unknown; readonly username?: unknown };
type SentMessage = { readonly id?: unknown };

export function createDiscordAdapter(options: DiscordAdapterOptions): PlatformAdapter {
  const { log } = options;
  const nowMs = options.nowMs ?? Date.now;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let state: ConnectionState = { connected: false, detail: 'not started' };
  const background = createBackgroundLoop({
    platform: 'discord',
    log,
    setState: (next) => {
      state = next;
    },
    crashDetail: 'gateway stopped after an internal error',
    crashMessage: 'Discord gateway crashed',
  });
  let botId: string | null = null;
  let limits: ReadonlyMap<string, number> = new Map();
  const channels = new Map<string, ChannelInfo>();

  const token = () => options.env[TOKEN_ENV]?.trim() ?? '';
  let client: { token: string; rest: DiscordRest } | null = null;
  const rest = (current: string): DiscordRest => {
    if (client?.token !== current) client = { token: current, rest: createDiscordRest({ apiBase: options.extra.api_base, token: current, ...(options.fetch ? { fetch: options.fetch } : {}) }) };
    return client.rest;
  };

  const remember = (channel: ChannelInfo) => {
    channels.delete(channel.id);
    channels.set(channel.id, channel);
    if (channels.size > CHANNEL_CACHE_MAX) channels.delete(channels.keys().next().value as string);
  };

  /** The channel a guild message came in (to know a thread's parent): cached, else GET /channels/{id}. */
  async function channelInfo(current: string, id: string, signal: AbortSignal): Promise<ChannelInfo | null> {
    const known = channels.get(id);
    if (known) return known;
    const answer = await rest(current).request('GET', `/channels/${id}`, { signal, timeoutMs: QUICK_CALL_MS });
    if (!answer.ok) {
      // No answer: not stored, so the Gateway replays it after a RESUME.
      if (answer.kind === 'network' || answer.status === 429 || answer.status >= 500) throw new Error(`GET /channels/${id}: ${answer.kind === 'network' ? answer.reason : `Discord ${answer.status}`}`);
      log.warn({ platform: 'discord', channelId: id, status: answer.status }, 'Discord channel not readable; the message is taken as not in a thread');
      return null;
    }
    const channel = readChannel(answer.body);
    if (channel) remember(channel);
    return channel;
  }

  async function onDispatch(current: string, sink: InboundSink, signal: AbortSignal, dispatch: Dispatch): Promise<void> {
    if (dispatch.t === 'THREAD_CREATE' || dispatch.t === 'THREAD_UPDATE' || dispatch.t === 'CHANNEL_CREATE' || dispatch.t === 'CHANNEL_UPDATE') {
      const channel = readChannel(dispatch.d);
      if (channel) remember(channel);
      return;
    }
    if (dispatch.t === 'GUILD_CREATE') {
      const d = (dispatch.d ?? {}) as { channels?: unknown; threads?: unknown };
      const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
      for (const raw of [...list(d.channels), ...list(d.threads)]) {
        const channel = readChannel(raw);
        if (channel) remember(channel);
      }
      return;
    }
    if (dispatch.t !== 'MESSAGE_CREATE') return;
    const parsed = parseMessageCreate(dispatch.d, botId, nowMs());
    if (parsed.kind === 'skip') {
      const fields = { platform: 'discord', seq: dispatch.s, reason: parsed.reason };
      if (parsed.malformed) log.warn(fields, 'Discord message skipped: malformed');
      else log.debug(fields, 'Discord message skipped');
      return;
    }
    const message = parsed.guildId === null ? parsed.message : placeInChannel(parsed.message, await channelInfo(current, parsed.message.chatId, signal));
    await sink(message);
  }

  async function start(sink: InboundSink): Promise<void> {
    if (background.running()) return;
    const current = token();
    if (current === '') {
      state = { connected: false, detail: MISSING_TOKEN };
      log.warn({ platform: 'discord' }, `Discord not started: ${MISSING_TOKEN}`);
      return;
    }
    const signal = background.begin();
    state = { connected: false, detail: 'connecting' };
    // The session the last process left, with the bot's id (a RESUME brings no READY to learn it).
    const saved = parseSavedSession(await loadCursor(options.cursor, log));
    if (saved) botId = saved.botId;
    let saving = Promise.resolve();
    const save = (session: GatewaySession | null) => {
      if (!options.cursor) return;
      const value = JSON.stringify(session && botId ? { ...session, botId } : null);
      const cursor = options.cursor;
      // In order, one at a time; a failure only means a restart re-identifies (and may miss what came meanwhile).
      saving = saving.then(() => cursor.save(value)).catch((err: unknown) => log.warn({ platform: 'discord', err: err instanceof Error ? err.message : String(err) }, 'Discord session could not be saved'));
    };
    background.run(
      runGateway({
        initialSession: saved?.session ?? null,
        onSession: save,
        rest: rest(current),
        token: current,
        log,
        backoff,
        signal,
        ...(options.jitter ? { jitter: options.jitter } : {}),
        setState: (next) => {
          if (!signal.aborted) state = next;
        },
        onReady: (bot) => {
          botId = bot.id;
        },
        onDispatch: (dispatch) => onDispatch(current, sink, signal, dispatch),
      }),
    );
  }

  async function stop(): Promise<void> {
    await background.stop();
  }

  async function send(message: OutboundMessage, signal?: AbortSignal): Promise<SendResult> {
    const current = token();
    if (current === '') return { ok: false, kind: 'permanent', reason: MISSING_TOKEN };
    const channelId = message.threadId ?? message.chatId;
    if (!/^\d{1,20}$/.test(channelId)) return { ok: false, kind: 'permanent', reason: `not a Discord channel id: ${channelId}` };
    const route = `POST /channels/${channelId}/messages`;
    // After X-RateLimit-Remaining: 0 (or a 429) this route waits out its reset first.
    const wait = Math.max(waitBeforeSend(limits, route, nowMs()), waitBeforeSend(limits, 'global', nowMs()));
    if (wait > 0) {
      log.debug({ platform: 'discord', channelId, waitMs: wait }, 'Discord rate limit: waiting before the send');
      await sleep(wait, signal);
      if (signal?.aborted) return { ok: false, kind: 'retry', reason: 'aborted while waiting out the rate limit' };
    }
    const answer = await rest(current).request<SentMessage>('POST', `/channels/${channelId}/messages`, { body: { content: message.text, allowed_mentions: { parse: [] }, ...(message.key ? { nonce: message.key, enforce_nonce: true } : {}) }, ...(signal ? { signal } : {}) });
    if (answer.ok) {
      limits = noteRateLimit(limits, route, answer.rateLimit, nowMs());
      const id = answer.body?.id;
      return { ok: true, messageId: typeof id === 'string' ? id : null };
    }
    if (answer.kind === 'api') {
      limits = noteRateLimit(limits, answer.global ? 'global' : route, answer.rateLimit, nowMs(), answer.status === 429 ? answer.retryAfterMs : undefined);
    }
    return classifySendFailure(answer);
  }

  async function typing(chatId: string, threadId: string | null): Promise<void> {
    const current = token();
    if (current === '') return;
    const channelId = threadId ?? chatId;
    const answer = await rest(current).request('POST', `/channels/${channelId}/typing`, { timeoutMs: QUICK_CALL_MS });
    if (!answer.ok) log.debug({ platform: 'discord', channelId, reason: answer.kind === 'network' ? answer.reason : `${answer.status} ${answer.message}` }, 'Discord typing indicator failed');
  }

  async function check(signal?: AbortSignal): Promise<PlatformCheck> {
    const current = token();
    if (current === '') return { ok: false, reason: MISSING_TOKEN };
    const me = await rest(current).request<BotUser | null>('GET', '/users/@me', { timeoutMs: QUICK_CALL_MS, ...(signal ? { signal } : {}) });
    if (!me.ok) {
      if (me.kind === 'network') return { ok: false, reason: `Discord unreachable: ${me.reason}`, cause: 'unreachable' };
      if (me.status === 401) return { ok: false, reason: `Discord rejected the token in ${TOKEN_ENV} (401)`, cause: 'credentials' };
      return { ok: false, reason: `Discord ${me.status}: ${me.message}` };
    }
    return { ok: true, detail: typeof me.body?.username === 'string' ? `bot ${me.body.username}` : 'token accepted' };
  }

  return { name: 'discord', start, stop, send, typing, check, state: () => state };
}
