// One connection to signal-cli's event stream (GET /api/v1/events): Server-Sent Events, one
// `receive` event per envelope (`event:receive` + one `data:` line of JSON) and a bare `:` comment
// every 15 s as keep-alive (HttpServerHandler, ServerSentEventSender). Yields `connected` once the
// daemon answered 200, then each `receive` event's data, and always ends with one `closed` item
// saying why; it never throws. Reconnecting is the caller's job.
import { createParser } from 'eventsource-parser';
import { networkMessage } from './rpc.js';

export type StreamItem =
  | { readonly kind: 'connected' }
  | { readonly kind: 'receive'; readonly data: string }
  | { readonly kind: 'closed'; readonly reason: string };

export type EventStreamOptions = {
  /** The daemon's base URL without a trailing slash. */
  readonly baseUrl: string;
  /**
   * In multi-account mode `?account=` limits the stream to that account (an unknown one is
   * answered 400); single-account mode ignores it.
   */
  readonly account: string;
  readonly fetch?: typeof fetch;
  readonly signal: AbortSignal;
  /** The connection is given up when nothing (not even a keep-alive) came for this long. */
  readonly idleTimeoutMs?: number;
  /** How long the daemon may take to answer the request itself. */
  readonly connectTimeoutMs?: number;
};

/** Four missed keep-alives: a half-open TCP connection is noticed within a minute. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export function eventsUrl(baseUrl: string, account: string): string {
  return `${baseUrl}/api/v1/events${account ? `?account=${encodeURIComponent(account)}` : ''}`;
}

export async function* readEventStream(options: EventStreamOptions): AsyncGenerator<StreamItem> {
  const doFetch = options.fetch ?? fetch;
  const controller = new AbortController();
  let why: 'idle' | 'connect' | null = null;
  const stop = () => controller.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, reason: 'idle' | 'connect') => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      why = reason;
      controller.abort();
    }, ms);
  };

  try {
    if (options.signal.aborted) {
      yield { kind: 'closed', reason: 'stopped' };
      return;
    }
    arm(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, 'connect');
    let response: Response;
    try {
      response = await doFetch(eventsUrl(options.baseUrl, options.account), {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
      });
    } catch (err) {
      yield { kind: 'closed', reason: closedReason(options.signal, why, `signal-cli daemon unreachable: ${networkMessage(err)}`) };
      return;
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      // A multi-account daemon answers 400 when it does not hold the `?account=` asked for.
      const hint = response.status === 400 && options.account ? ` (does it hold ${options.account}?)` : '';
      yield { kind: 'closed', reason: `the signal-cli daemon answered HTTP ${response.status} for the event stream${hint}` };
      return;
    }
    clearTimeout(timer);
    yield { kind: 'connected' };

    const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const pending: string[] = [];
    const parser = createParser({
      onEvent(event) {
        // signal-cli sends only `receive` on this stream; anything else is not for us.
        if (event.event === 'receive') pending.push(event.data);
      },
    });
    const decoder = new TextDecoder();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        arm(idleMs, 'idle');
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        while (pending.length > 0) {
          clearTimeout(timer);
          yield { kind: 'receive', data: pending.shift() as string };
        }
      }
      parser.feed(decoder.decode());
      for (const data of pending.splice(0)) yield { kind: 'receive', data };
      yield { kind: 'closed', reason: 'the signal-cli daemon ended the event stream' };
      return;
    } catch (err) {
      yield { kind: 'closed', reason: closedReason(options.signal, why, `the event stream broke: ${networkMessage(err)}`) };
      return;
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', stop);
    controller.abort();
  }
}

function closedReason(caller: AbortSignal, why: 'idle' | 'connect' | null, otherwise: string): string {
  if (caller.aborted) return 'stopped';
  if (why === 'idle') return 'the event stream went silent (no keep-alive)';
  if (why === 'connect') return 'the signal-cli daemon did not answer the event stream request in time';
  return otherwise;
}
