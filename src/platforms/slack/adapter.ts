// The Slack adapter: Socket Mode in (socket.ts), chat.postMessage out with the agent's Markdown as
// mrkdwn. Two tokens from .env: the app-level token (xapp-, connections:write) opens the socket,
// the bot token (xoxb-) posts and says who the bot is (auth.test), so its own posts, which come
// back as events, are skipped. Slack has no typing indicator for bots in Socket Mode: none here.
import { createBackgroundLoop } from '../background-loop.js';
import type { Env } from '../../config/home.js';
import type { SlackConfig } from '../../config/schema.js';
import type { ConnectionState, InboundSink, OutboundMessage, PlatformAdapter, PlatformCheck, PlatformLog, SendResult } from '../types.js';
import { markdownToMrkdwn } from './mrkdwn.js';
import { classifySendFailure } from './send-result.js';
import { findPostedKey, lookupCall, outboxMetadata } from './outbox-metadata.js';
import { runSocketLoop } from './socket.js';
import { DEFAULT_BACKOFF, type Backoff } from './socket-state.js';
import { APP_TOKEN_ENV, BOT_TOKEN_ENV } from './tokens.js';
import { AUTH_ERRORS, createWebApi, describeWebFailure, type WebApiFailure } from './web-api.js';

export { APP_TOKEN_ENV, BOT_TOKEN_ENV } from './tokens.js';
/** auth.test and apps.connections.open: small calls that should answer at once. */
const QUICK_CALL_MS = 10_000;

export type SlackAdapterOptions = {
  readonly extra: Pick<SlackConfig['extra'], 'api_base'>;
  readonly env: Env;
  readonly log: PlatformLog;
  readonly fetch?: typeof fetch;
  readonly backoff?: Backoff;
  readonly helloTimeoutMs?: number;
  readonly pingIntervalMs?: number;
};

type AuthTest = { readonly user_id?: unknown; readonly user?: unknown; readonly team?: unknown };
type Posted = { readonly ts?: unknown };

export function missingTokens(env: Env): string[] {
  return [BOT_TOKEN_ENV, APP_TOKEN_ENV].filter((name) => (env[name]?.trim() ?? '') === '');
}

export function createSlackAdapter(options: SlackAdapterOptions): PlatformAdapter {
  const { log } = options;
  const api = createWebApi({ apiBase: options.extra.api_base, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const botToken = () => options.env[BOT_TOKEN_ENV]?.trim() ?? '';
  const appToken = () => options.env[APP_TOKEN_ENV]?.trim() ?? '';
  let state: ConnectionState = { connected: false, detail: 'not started' };
  let botUserId: string | null = null;
  let botName: string | null = null;
  const background = createBackgroundLoop({
    platform: 'slack',
    log,
    setState: (next) => {
      state = next;
    },
    crashDetail: 'Socket Mode stopped after an internal error',
    crashMessage: 'Slack socket loop crashed',
  });
  const connected = (): ConnectionState => ({ connected: true, detail: botName ? `connected as @${botName}` : 'connected' });

  /** auth.test with the bot token: who the bot is. */
  async function whoAmI(signal?: AbortSignal) {
    const answer = await api.call<AuthTest>('auth.test', botToken(), {}, { timeoutMs: QUICK_CALL_MS, ...(signal ? { signal } : {}) });
    if (answer.ok) {
      botUserId = typeof answer.body.user_id === 'string' ? answer.body.user_id : null;
      botName = typeof answer.body.user === 'string' ? answer.body.user : null;
    }
    return answer;
  }

  async function start(sink: InboundSink): Promise<void> {
    if (background.running()) return;
    const missing = missingTokens(options.env);
    if (missing.length > 0) {
      const detail = `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set in .env`;
      state = { connected: false, detail };
      log.warn({ platform: 'slack' }, `Slack not started: ${detail}`);
      return;
    }
    const signal = background.begin();
    const me = await whoAmI(signal);
    if (signal.aborted) return;
    if (me.ok) log.info({ platform: 'slack', bot: botName, bot_user_id: botUserId }, 'Slack: bot token accepted');
    else {
      state = { connected: false, detail: `auth.test failed: ${describeWebFailure(me)}` };
      log.warn({ platform: 'slack' }, `Slack auth.test failed (${describeWebFailure(me)}); the bot's own posts are told apart by bot_id only until it succeeds`);
    }
    background.run(
      runSocketLoop({
        open: async (signal) => {
          // The bot's user id is needed to skip its own posts; ask again on each connect until known.
          if (botUserId === null) await whoAmI(signal);
          return api.call<{ url?: unknown }>('apps.connections.open', appToken(), {}, { signal, timeoutMs: QUICK_CALL_MS });
        },
        sink,
        log,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        signal,
        setState: (next) => {
          state = next;
        },
        connected,
        botUserId: () => botUserId,
        appTokenEnv: APP_TOKEN_ENV,
        ...(options.helloTimeoutMs !== undefined ? { helloTimeoutMs: options.helloTimeoutMs } : {}),
        ...(options.pingIntervalMs !== undefined ? { pingIntervalMs: options.pingIntervalMs } : {}),
      }),
    );
  }

  async function stop(): Promise<void> {
    await background.stop();
  }

  async function send(message: OutboundMessage, signal?: AbortSignal): Promise<SendResult> {
    const token = botToken();
    if (token === '') return { ok: false, kind: 'permanent', reason: `${BOT_TOKEN_ENV} is not set in .env` };
    const callOptions = signal ? { signal } : {};
    if (message.key !== undefined && message.mayHaveBeenSent) {
      // It may be in the conversation already: posted by a sender that died before recording it.
      // A lookup that fails (no history scope, Slack away) posts anyway: at least once.
      const lookup = lookupCall(message.chatId, message.threadId);
      const listed = await api.call(lookup.method, token, lookup.params, callOptions);
      const ts = listed.ok ? findPostedKey(listed.body, message.key) : undefined;
      if (ts !== undefined) return { ok: true, messageId: ts };
    }
    const params = {
      channel: message.chatId,
      text: markdownToMrkdwn(message.text),
      mrkdwn: true,
      ...(message.threadId !== null ? { thread_ts: message.threadId } : {}),
      ...(message.key !== undefined ? { metadata: outboxMetadata(message.key) } : {}),
    };
    const answer = await api.call<Posted>('chat.postMessage', token, params, callOptions);
    if (!answer.ok) return classifySendFailure(answer);
    return { ok: true, messageId: typeof answer.body.ts === 'string' ? answer.body.ts : null };
  }

  async function check(signal?: AbortSignal): Promise<PlatformCheck> {
    const missing = missingTokens(options.env);
    if (missing.length > 0) return { ok: false, reason: `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set in .env`, cause: 'credentials' };
    const callOptions = { timeoutMs: QUICK_CALL_MS, ...(signal ? { signal } : {}) };
    const me = await api.call<AuthTest>('auth.test', botToken(), {}, callOptions);
    if (!me.ok) return checkFailure(me, BOT_TOKEN_ENV, 'bot token');
    const open = await api.call<{ url?: unknown }>('apps.connections.open', appToken(), {}, callOptions);
    if (!open.ok) return checkFailure(open, APP_TOKEN_ENV, 'app-level token');
    const name = typeof me.body.user === 'string' ? `@${me.body.user}` : 'bot token accepted';
    const team = typeof me.body.team === 'string' ? ` in ${me.body.team}` : '';
    return { ok: true, detail: `${name}${team}; Socket Mode available` };
  }

  return { name: 'slack', start, stop, send, check, state: () => state };
}

function checkFailure(failure: WebApiFailure, env: string, what: string): PlatformCheck {
  if (failure.kind === 'network') return { ok: false, reason: describeWebFailure(failure), cause: 'unreachable' };
  if (AUTH_ERRORS.has(failure.error)) return { ok: false, reason: `Slack rejected the ${what} in ${env} (${failure.error})`, cause: 'credentials' };
  return { ok: false, reason: `${env}: ${describeWebFailure(failure)}` };
}
