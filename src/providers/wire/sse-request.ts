// POST a JSON body and read the answer as server-sent events, with the three timeouts (connect,
// first byte, idle between chunks) and cancellation. Yields parsed SSE messages; every failure
// (HTTP status, network, timeout, cancel) ends the stream as one `failure` item, never a throw.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { fetch, type Dispatcher } from 'undici';
import { redactText } from '../../log/redact.js';
import type { Timeouts } from './types.js';
import { errorMessage } from '../../domain/error-message.js';

export type HttpFailure =
  | { readonly kind: 'status'; readonly status: number; readonly headers: Headers; readonly body: string }
  | { readonly kind: 'timeout'; readonly phase: 'first_byte' | 'idle' | 'connect' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'network'; readonly message: string };

export type SseItem =
  /** Messages come in batches: one generator step per network chunk, not per event. */
  | { readonly kind: 'messages'; readonly messages: readonly EventSourceMessage[] }
  | { readonly kind: 'failure'; readonly failure: HttpFailure }
  | { readonly kind: 'end' };

export type SseRequest = {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly timeouts: Timeouts;
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
};

/**
 * A big network chunk is fed to the parser in slices of this size, so the first events of a
 * 64 KiB chunk reach the caller before the rest of it is parsed.
 */
const FEED_SLICE = 2048;

/** Error bodies are read up to this size: enough for any provider's JSON error. */
const MAX_ERROR_BODY = 64 * 1024;

type AbortReason = 'first_byte' | 'idle' | 'cancelled';

/** A fetch failure as one line: undici's cause code first (ECONNREFUSED, ENOTFOUND…), redacted. */
export function networkMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const base = errorMessage(err);
  const text = cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ''}` : cause?.message ? `${base}: ${cause.message}` : base;
  return redactText(text);
}

function isConnectTimeout(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  return code === 'UND_ERR_CONNECT_TIMEOUT';
}

async function readCapped(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MAX_ERROR_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, MAX_ERROR_BODY);
}

export async function* postSse(request: SseRequest): AsyncGenerator<SseItem> {
  const controller = new AbortController();
  let reason: AbortReason | undefined;
  const abort = (why: AbortReason) => {
    reason ??= why;
    controller.abort();
  };
  const onCallerAbort = () => abort('cancelled');
  if (request.signal?.aborted) {
    yield { kind: 'failure', failure: { kind: 'cancelled' } };
    return;
  }
  request.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let timer: NodeJS.Timeout | undefined = setTimeout(() => abort('first_byte'), request.timeouts.firstByteMs);
  const armIdle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => abort('idle'), request.timeouts.idleMs);
  };
  const failureFor = (err: unknown): HttpFailure => {
    if (reason === 'cancelled') return { kind: 'cancelled' };
    if (reason) return { kind: 'timeout', phase: reason };
    if (isConnectTimeout(err)) return { kind: 'timeout', phase: 'connect' };
    return { kind: 'network', message: networkMessage(err) };
  };

  try {
    let response;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...request.headers },
        body: JSON.stringify(request.body),
        signal: controller.signal,
        ...(request.dispatcher ? { dispatcher: request.dispatcher } : {}),
      });
    } catch (err) {
      yield { kind: 'failure', failure: failureFor(err) };
      return;
    }
    armIdle();
    if (!response.ok) {
      let body = '';
      try {
        body = await readCapped(response.body as ReadableStream<Uint8Array> | null);
      } catch (err) {
        if (reason) {
          yield { kind: 'failure', failure: failureFor(err) };
          return;
        }
      }
      yield {
        kind: 'failure',
        failure: { kind: 'status', status: response.status, headers: response.headers as unknown as Headers, body },
      };
      return;
    }

    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => queue.push(message) });
    const decoder = new TextDecoder();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch (err) {
          yield { kind: 'failure', failure: failureFor(err) };
          return;
        }
        if (chunk.done) break;
        armIdle();
        const text = decoder.decode(chunk.value, { stream: true });
        for (let at = 0; at < text.length; at += FEED_SLICE) {
          parser.feed(text.length <= FEED_SLICE ? text : text.slice(at, at + FEED_SLICE));
          if (queue.length > 0) yield { kind: 'messages', messages: queue.splice(0) };
        }
      }
      // A last event without its blank line is still an event.
      parser.reset({ consume: true });
      if (queue.length > 0) yield { kind: 'messages', messages: queue.splice(0) };
      yield { kind: 'end' };
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onCallerAbort);
  }
}
