// The Signal adapter: signal-cli running as `signal-cli daemon --http host:port` does the Signal
// protocol; this reads its event stream and calls its JSON-RPC endpoint. Receiving runs in the
// background and reconnects with backoff; sending is one `send` call per message.
//
// SSE has no acknowledgement: the daemon has already taken the message off Signal's server when
// the event reaches us, so a sink that rejects loses it. That is logged at error with the id, and
// the next message is still delivered.
import type { SignalConfig } from '../../config/schema.js';
import { errorMessage } from '../../domain/error-message.js';
import { backoffMs, type Backoff } from '../../runtime/backoff.js';
import { fetchWithin } from '../../runtime/fetch-within.js';
import { sleep } from '../../runtime/sleep.js';
import { createBackgroundLoop } from '../background-loop.js';
import { markdownToPlainText } from '../plain-text.js';
import type { ConnectionState, InboundSink, PlatformAdapter, PlatformCheck, PlatformLog } from '../types.js';
import { parseReceiveEvent } from './envelope.js';
import { readEventStream } from './event-stream.js';
import type { RpcOutcome } from './rpc.js';
import { createSignalRpc, networkMessage } from './rpc.js';
import { SIGNAL_ERROR, classifySendOutcome } from './send-result.js';

export type { Backoff };

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

/** 1 s, doubling, at most 30 s. */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1_000, maxMs: 30_000 });
export const HTTP_URL_NOT_SET = 'platforms.signal.extra.http_url is not set';

const CHECK_TIMEOUT_MS = 10_000;

export function createSignalAdapter(options: SignalAdapterOptions): PlatformAdapter {
  const baseUrl = options.extra.http_url.trim().replace(/\/+$/, '');
  const account = options.extra.account.trim();
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const { log } = options;
  const rpc = createSignalRpc({ baseUrl, account, fetch: options.fetch, timeoutMs: options.rpcTimeoutMs });

  let state: ConnectionState = baseUrl
    ? { connected: false, detail: 'not started' }
    : { connected: false, detail: HTTP_URL_NOT_SET };
  const background = createBackgroundLoop({
    platform: 'signal',
    log,
    setState: (next) => {
      state = next;
    },
    crashDetail: 'receiving stopped after an internal error',
    crashMessage: 'signal: the receive loop failed',
  });

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
    // Losses in a row since the stream was last connected: the first waits firstMs.
    let failures = 0;
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
          failures = 0;
          log.info({ platform: 'signal', url: baseUrl }, 'signal: event stream connected');
        } else if (item.kind === 'receive') {
          await deliver(item.data, sink);
        } else {
          state = { connected: false, detail: item.reason };
        }
      }
      if (signal.aborted) break;
      failures += 1;
      const pauseMs = backoffMs(backoff, failures);
      log.warn({ platform: 'signal', reason: state.detail, retryInMs: pauseMs }, 'signal: event stream lost, reconnecting');
      await sleep(pauseMs, signal);
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
      if (background.running()) return;
      const signal = background.begin();
      state = { connected: false, detail: `connecting to ${baseUrl}` };
      background.run(receiveLoop(sink, signal));
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
      // Never started (no http_url): the state keeps saying why.
      if (!background.running()) return;
      await background.stop();
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
  const answer = await fetchWithin(doFetch, `${baseUrl}/api/v1/check`, {}, { timeoutMs: CHECK_TIMEOUT_MS, ...(signal ? { signal } : {}), describe: networkMessage });
  if (!answer.ok) {
    const why = answer.timedOut ? 'no answer in time' : answer.reason;
    return { ok: false, reason: `signal-cli daemon unreachable at ${baseUrl}: ${why}`, cause: 'unreachable' };
  }
  if (answer.status !== 200) return { ok: false, reason: `the signal-cli daemon at ${baseUrl} answered HTTP ${answer.status}` };
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
