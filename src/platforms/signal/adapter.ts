// The Signal adapter: signal-cli running as `signal-cli daemon --http host:port` does the Signal
// protocol; this reads its event stream and calls its JSON-RPC endpoint. Receiving runs in the
// background and reconnects with backoff; sending is one `send` call per message.
//
// SSE has no acknowledgement: the daemon has already taken the message off Signal's server when
// the event reaches us, so a sink that rejects loses it. That is logged at error with the id, and
// the next message is still delivered.
import { setTimeout as delay } from 'node:timers/promises';
import type { SignalConfig } from '../../config/schema.js';
import { errorMessage } from '../../domain/error-message.js';
import { markdownToPlainText } from '../plain-text.js';
import type { ConnectionState, InboundSink, PlatformAdapter, PlatformCheck, PlatformLog } from '../types.js';
import { parseReceiveEvent } from './envelope.js';
import { readEventStream } from './event-stream.js';
import type { RpcOutcome } from './rpc.js';
import { createSignalRpc, networkMessage } from './rpc.js';
import { SIGNAL_ERROR, classifySendOutcome } from './send-result.js';

export type Backoff = { readonly firstMs: number; readonly maxMs: number };

export type SignalAdapterOptions = {
  readonly extra: SignalConfig['extra'];
  readonly log: PlatformLog;
  readonly fetch?: typeof fetch;
  /** Pause before reconnecting: doubles from firstMs up to maxMs, back to firstMs once connected. */
  readonly backoff?: Backoff;
  /** Silence on the event stream after which it is reconnected (the daemon pings every 15 s). */
  readonly idleTimeoutMs?: number;
  readonly rpcTimeoutMs?: number;
};

export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1_000, maxMs: 30_000 });
export const HTTP_URL_NOT_SET = 'platforms.signal.extra.http_url is not set';

const CHECK_TIMEOUT_MS = 10_000;

/** The next pause: double the last, capped. Pure. */
export function nextBackoff(lastMs: number, backoff: Backoff): number {
  return Math.min(Math.max(lastMs * 2, backoff.firstMs), backoff.maxMs);
}

export function createSignalAdapter(options: SignalAdapterOptions): PlatformAdapter {
  const baseUrl = options.extra.http_url.trim().replace(/\/+$/, '');
  const account = options.extra.account.trim();
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const { log } = options;
  const rpc = createSignalRpc({ baseUrl, account, fetch: options.fetch, timeoutMs: options.rpcTimeoutMs });

  let state: ConnectionState = baseUrl
    ? { connected: false, detail: 'not started' }
    : { connected: false, detail: HTTP_URL_NOT_SET };
  let running: { controller: AbortController; loop: Promise<void> } | null = null;

  async function deliver(data: string, sink: InboundSink): Promise<void> {
    const parsed = parseReceiveEvent(data, account);
    if (!parsed.ok) {
      if (parsed.skip === 'malformed') log.warn({ platform: 'signal', detail: parsed.detail }, 'signal: malformed receive event skipped');
      else log.debug({ platform: 'signal', skip: parsed.skip, detail: parsed.detail }, 'signal: event skipped');
      return;
    }
    try {
      await sink(parsed.message);
    } catch (err) {
      log.error(
        { platform: 'signal', messageId: parsed.message.messageId, chatId: parsed.message.chatId, error: errorMessage(err) },
        'signal: the message could not be stored and is lost (the event stream has no acknowledgement)',
      );
    }
  }

  async function receiveLoop(sink: InboundSink, signal: AbortSignal): Promise<void> {
    let pauseMs = backoff.firstMs;
    while (!signal.aborted) {
      for await (const item of readEventStream({
        baseUrl,
        account,
        fetch: options.fetch,
        signal,
        idleTimeoutMs: options.idleTimeoutMs,
      })) {
        if (item.kind === 'connected') {
          state = { connected: true, detail: `receiving from ${baseUrl}` };
          pauseMs = backoff.firstMs;
          log.info({ platform: 'signal', url: baseUrl }, 'signal: event stream connected');
        } else if (item.kind === 'receive') {
          await deliver(item.data, sink);
        } else {
          state = { connected: false, detail: item.reason };
        }
      }
      if (signal.aborted) break;
      log.warn({ platform: 'signal', reason: state.detail, retryInMs: pauseMs }, 'signal: event stream lost, reconnecting');
      await delay(pauseMs, undefined, { signal }).catch(() => undefined);
      pauseMs = nextBackoff(pauseMs, backoff);
    }
    state = { connected: false, detail: 'stopped' };
  }

  return {
    name: 'signal',

    async start(sink) {
      if (!baseUrl) {
        log.warn({ platform: 'signal' }, `signal: not receiving, ${HTTP_URL_NOT_SET}`);
        return;
      }
      if (running) return;
      const controller = new AbortController();
      state = { connected: false, detail: `connecting to ${baseUrl}` };
      // The loop catches what it expects; anything else (a throwing logger) must not become an
      // unhandled rejection that takes the gateway down.
      const loop = receiveLoop(sink, controller.signal).catch((err: unknown) => {
        state = { connected: false, detail: `receiving failed: ${errorMessage(err)}` };
        log.error({ platform: 'signal', error: errorMessage(err) }, 'signal: the receive loop failed');
      });
      running = { controller, loop };
    },

    prepare: markdownToPlainText,

    async send(message, signal) {
      if (!baseUrl) return { ok: false, kind: 'permanent', reason: HTTP_URL_NOT_SET };
      return classifySendOutcome(await rpc.send(message.chatId, message.text, signal));
    },

    async typing(chatId) {
      if (!baseUrl) return;
      const outcome = await rpc.sendTyping(chatId);
      if (outcome.kind !== 'result') log.debug({ platform: 'signal', outcome: describe(outcome) }, 'signal: typing not shown');
    },

    state: () => state,

    async check(signal) {
      if (!baseUrl) return { ok: false, reason: HTTP_URL_NOT_SET };
      return checkDaemon(baseUrl, account, options.fetch ?? fetch, rpc.call, signal);
    },

    async stop() {
      if (!running) return;
      const { controller, loop } = running;
      running = null;
      controller.abort();
      await loop;
    },
  };
}

/**
 * GET /api/v1/check answers 200 with no body whenever the daemon runs. With an account set,
 * `listAccounts` says whether the daemon holds it; that method exists only in multi-account mode
 * (a single-account daemon answers -32601), where the account was fixed by `-a` at start.
 */
async function checkDaemon(
  baseUrl: string,
  account: string,
  doFetch: typeof fetch,
  call: (method: string, params: undefined, signal?: AbortSignal) => Promise<RpcOutcome>,
  signal?: AbortSignal,
): Promise<PlatformCheck> {
  const timeout = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  try {
    const response = await doFetch(`${baseUrl}/api/v1/check`, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    await response.body?.cancel().catch(() => undefined);
    if (response.status !== 200) return { ok: false, reason: `the signal-cli daemon at ${baseUrl} answered HTTP ${response.status}` };
  } catch (err) {
    const why = timeout.aborted ? 'no answer in time' : networkMessage(err);
    return { ok: false, reason: `signal-cli daemon unreachable at ${baseUrl}: ${why}`, cause: 'unreachable' };
  }
  if (!account) return { ok: true, detail: `the signal-cli daemon at ${baseUrl} answers` };

  const outcome = await call('listAccounts', undefined, signal);
  if (outcome.kind === 'rpc_error' && outcome.code === SIGNAL_ERROR.METHOD_NOT_FOUND) {
    return { ok: true, detail: `the signal-cli daemon at ${baseUrl} answers (single-account mode: its account is the one it was started with)` };
  }
  if (outcome.kind !== 'result') return { ok: false, reason: `listAccounts failed: ${describe(outcome)}` };
  const numbers = Array.isArray(outcome.result)
    ? outcome.result.map((entry) => (entry as { number?: unknown } | null)?.number).filter((n): n is string => typeof n === 'string')
    : [];
  return numbers.includes(account)
    ? { ok: true, detail: `the signal-cli daemon at ${baseUrl} answers and holds ${account}` }
    : { ok: false, reason: `the signal-cli daemon at ${baseUrl} does not hold the account ${account} (it has: ${numbers.join(', ') || 'none'})` };
}

function describe(outcome: RpcOutcome): string {
  switch (outcome.kind) {
    case 'result':
      return 'ok';
    case 'rpc_error':
      return `error ${outcome.code}: ${outcome.message}`;
    case 'http':
      return `HTTP ${outcome.status}`;
    case 'network':
      return `unreachable: ${outcome.message}`;
    case 'timeout':
      return 'no answer in time';
    case 'cancelled':
      return 'cancelled';
    case 'bad_response':
      return outcome.detail;
  }
}
