// The Telegram adapter: long polling in (poller.ts), sendMessage out with the agent's Markdown as
// Telegram HTML. It knows the Bot API and nothing of the agent; the platform layer decides who may
// talk, keeps sessions and the outbox.
//
// Never drops pending updates: no deleteWebhook, no drop_pending_updates. If a webhook is set,
// polling fails with 409 and `state()` says so; removing it is the owner's decision.
import { createBackgroundLoop } from '../background-loop.js';
import type { Env } from '../../config/home.js';
import type { TelegramConfig } from '../../config/schema.js';
import type { ConnectionState, InboundSink, OutboundMessage, PlatformAdapter, PlatformCheck, PlatformLog, SendResult } from '../types.js';
import { createBotApi, type BotApi, type BotApiResult } from './bot-api.js';
import { markdownToTelegramHtml } from './markdown-html.js';
import { DEFAULT_BACKOFF, describeFailure, failureState, type Backoff } from './poll-state.js';
import { runPoller } from './poller.js';
import { classifySendFailure, isEntityParseError } from './send-result.js';
import { commandForAnotherBot } from './updates.js';

export const TOKEN_ENV = 'TELEGRAM_BOT_TOKEN';
const MISSING_TOKEN = `${TOKEN_ENV} is not set in .env`;
/** getMe at start and in the doctor, and "typing…": small calls that should answer at once. */
const QUICK_CALL_MS = 10_000;

export type TelegramAdapterOptions = {
  readonly extra: Pick<TelegramConfig['extra'], 'api_base' | 'poll_timeout'>;
  readonly env: Env;
  readonly log: PlatformLog;
  readonly fetch?: typeof fetch;
  readonly backoff?: Backoff;
};

type BotUser = { readonly username?: string };
type SentMessage = { readonly message_id?: unknown };

export function createTelegramAdapter(options: TelegramAdapterOptions): PlatformAdapter {
  const { log } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let state: ConnectionState = { connected: false, detail: 'not started' };
  let username: string | null = null;
  const background = createBackgroundLoop({
    platform: 'telegram',
    log,
    setState: (next) => {
      state = next;
    },
    crashDetail: 'polling stopped after an internal error',
    crashMessage: 'Telegram poller crashed',
  });

  const token = () => options.env[TOKEN_ENV]?.trim() ?? '';
  let client: { token: string; api: BotApi } | null = null;
  const api = (current: string): BotApi => {
    if (client?.token !== current) {
      client = { token: current, api: createBotApi({ apiBase: options.extra.api_base, token: current, ...(options.fetch ? { fetch: options.fetch } : {}) }) };
    }
    return client.api;
  };
  const connected = (): ConnectionState => ({ connected: true, detail: username ? `connected as @${username}` : 'connected' });

  async function start(sink: InboundSink): Promise<void> {
    // Started (or starting) already: one poller per token, or the two would 409 each other.
    if (background.running()) return;
    const current = token();
    if (current === '') {
      state = { connected: false, detail: MISSING_TOKEN };
      log.warn({ platform: 'telegram' }, `Telegram not started: ${MISSING_TOKEN}`);
      return;
    }
    const signal = background.begin();
    const me = await api(current).call<BotUser | null>('getMe', {}, { signal, timeoutMs: QUICK_CALL_MS });
    // stop() came during getMe: it has already said 'stopped'.
    if (signal.aborted) return;
    if (me.ok) {
      username = typeof me.result?.username === 'string' ? me.result.username : null;
      state = connected();
      log.info({ platform: 'telegram', bot: username }, 'Telegram: polling for updates');
    } else {
      state = failureState(me);
      log.warn({ platform: 'telegram' }, `Telegram getMe failed, polling anyway: ${describeFailure(me)}`);
    }
    background.run(
      runPoller({
        api: api(current),
        pollTimeout: options.extra.poll_timeout,
        sink: async (message) => {
          if (commandForAnotherBot(message.text, username)) {
            log.debug({ platform: 'telegram', chat_id: message.chatId, message_id: message.messageId }, 'Telegram command for another bot skipped');
            return;
          }
          await sink(message);
        },
        log,
        backoff,
        signal,
        setState: (next) => {
          state = next;
        },
        connected,
      }),
    );
  }

  async function stop(): Promise<void> {
    await background.stop();
  }

  async function send(message: OutboundMessage, signal?: AbortSignal): Promise<SendResult> {
    const current = token();
    if (current === '') return { ok: false, kind: 'permanent', reason: MISSING_TOKEN };
    const target = { chat_id: message.chatId, ...threadParam(message.threadId) };
    const callOptions = signal ? { signal } : {};
    const html = await api(current).call<SentMessage>('sendMessage', { ...target, text: markdownToTelegramHtml(message.text), parse_mode: 'HTML' }, callOptions);
    if (html.ok) return sent(html);
    if (!isEntityParseError(html)) return classifySendFailure(html);
    // Our HTML was refused: the words matter more than the formatting, so send the Markdown as it is.
    log.warn({ platform: 'telegram', chatId: message.chatId, description: html.description }, 'Telegram refused the HTML; sending plain text');
    const plain = await api(current).call<SentMessage>('sendMessage', { ...target, text: message.text }, callOptions);
    return plain.ok ? sent(plain) : classifySendFailure(plain);
  }

  async function typing(chatId: string, threadId: string | null): Promise<void> {
    const current = token();
    if (current === '') return;
    const answer = await api(current).call('sendChatAction', { chat_id: chatId, action: 'typing', ...threadParam(threadId) }, { timeoutMs: QUICK_CALL_MS });
    if (!answer.ok) log.debug({ platform: 'telegram', chatId, reason: describeFailure(answer) }, 'Telegram typing indicator failed');
  }

  async function check(signal?: AbortSignal): Promise<PlatformCheck> {
    const current = token();
    if (current === '') return { ok: false, reason: MISSING_TOKEN };
    const me = await api(current).call<BotUser | null>('getMe', {}, { timeoutMs: QUICK_CALL_MS, ...(signal ? { signal } : {}) });
    if (!me.ok) {
      if (me.kind === 'network') return { ok: false, reason: describeFailure(me), cause: 'unreachable' };
      if (me.kind === 'api' && me.status === 401) return { ok: false, reason: `Telegram rejected the token in ${TOKEN_ENV} (401)`, cause: 'credentials' };
      return { ok: false, reason: describeFailure(me) };
    }
    return { ok: true, detail: typeof me.result?.username === 'string' ? `@${me.result.username}` : 'token accepted' };
  }

  return { name: 'telegram', start, stop, send, typing, check, state: () => state };
}

/** message_thread_id for a forum topic; ids are integers on the wire. */
function threadParam(threadId: string | null): { message_thread_id?: number } {
  return threadId !== null && /^\d+$/.test(threadId) ? { message_thread_id: Number(threadId) } : {};
}

function sent(answer: Extract<BotApiResult<SentMessage>, { ok: true }>): SendResult {
  const id = answer.result?.message_id;
  return { ok: true, messageId: typeof id === 'number' || typeof id === 'string' ? String(id) : null };
}
