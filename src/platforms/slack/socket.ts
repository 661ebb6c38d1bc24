// The Socket Mode loop: apps.connections.open gives a websocket URL; the socket says hello, then
// sends envelopes. Each event is handed to the sink and acknowledged (`{envelope_id}`) only once
// the sink resolved, i.e. the message is stored; a sink rejection leaves it unacknowledged and
// Slack sends it again under a new envelope_id (the store's dedup key, the event's ts, catches a
// repeat). Events are handed over one at a time, in arrival order.
//
// A `disconnect` frame, a dropped socket or a failed open leads to a reconnect with backoff; the
// loop ends only when `signal` aborts.
import WebSocket, { type RawData } from 'ws';
import type { ConnectionState, InboundSink, PlatformLog } from '../types.js';
import { parseFrame } from './events.js';
import { backoffMs, openDelayMs, openFailureState, type Backoff } from './socket-state.js';
import type { WebApiResult } from './web-api.js';
import { sleep } from '../../runtime/sleep.js';

export type SocketLoopOptions = {
  /** apps.connections.open with the app-level token. */
  readonly open: (signal: AbortSignal) => Promise<WebApiResult<{ url?: unknown }>>;
  readonly sink: InboundSink;
  readonly log: PlatformLog;
  readonly backoff: Backoff;
  readonly signal: AbortSignal;
  readonly setState: (state: ConnectionState) => void;
  readonly connected: () => ConnectionState;
  /** The bot's own user id, when known (its own posts are skipped). */
  readonly botUserId: () => string | null;
  readonly appTokenEnv: string;
  /** No hello within this after the socket opened: give up on it and reconnect. */
  readonly helloTimeoutMs?: number;
  /** A ping every this often; no pong by the next one and the socket is taken for dead. */
  readonly pingIntervalMs?: number;
  readonly nowMs?: () => number;
};

const P = { platform: 'slack' } as const;

export async function runSocketLoop(options: SocketLoopOptions): Promise<void> {
  const { log, signal, backoff } = options;
  let failures = 0;
  while (!signal.aborted) {
    const opened = await options.open(signal);
    if (signal.aborted) return;
    const url = opened.ok && typeof opened.body.url === 'string' ? opened.body.url : null;
    if (!opened.ok || url === null) {
      failures += 1;
      const state = opened.ok ? { connected: false, detail: 'apps.connections.open answered without a url' } : openFailureState(opened, options.appTokenEnv);
      options.setState(state);
      const delay = opened.ok ? backoffMs(backoff, failures) : openDelayMs(opened, failures, backoff);
      log.warn({ ...P, retry_in_ms: delay }, `Slack: ${state.detail}`);
      await sleep(delay, signal);
      continue;
    }
    const session = await runSession(url, options);
    if (signal.aborted) return;
    failures = session.helloSeen ? 1 : failures + 1;
    const delay = backoffMs(backoff, failures);
    options.setState({ connected: false, detail: `reconnecting: ${session.reason}` });
    log.info({ ...P, retry_in_ms: delay }, `Slack socket closed (${session.reason}); reconnecting`);
    await sleep(delay, signal);
  }
}

type SessionEnd = { readonly helloSeen: boolean; readonly reason: string };

/** One websocket, from open to close. Resolves when it is closed (never rejects). */
function runSession(url: string, options: SocketLoopOptions): Promise<SessionEnd> {
  const { log, signal, sink } = options;
  const nowMs = options.nowMs ?? Date.now;
  return new Promise<SessionEnd>((resolve) => {
    let helloSeen = false;
    let reason = 'socket closed';
    // Events one at a time, in order: a chain each frame is appended to.
    let chain: Promise<void> = Promise.resolve();
    const socket = new WebSocket(url, { handshakeTimeout: options.helloTimeoutMs ?? 15_000 });
    const helloTimer = setTimeout(() => {
      reason = 'no hello from Slack';
      socket.terminate();
    }, options.helloTimeoutMs ?? 15_000);
    // A socket can die without a close (a laptop asleep, a NAT forgetting it): ping it.
    let ponged = true;
    socket.on('pong', () => {
      ponged = true;
    });
    const pinger = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (!ponged) {
        reason = 'no pong from Slack';
        socket.terminate();
        return;
      }
      ponged = false;
      socket.ping();
    }, options.pingIntervalMs ?? 30_000);
    const onAbort = () => {
      reason = 'stopped';
      socket.close(1000);
      // Slack's close frame is not waited for long: stop() should not hang on a dead socket.
      setTimeout(() => socket.terminate(), 1_000).unref();
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const ack = (envelopeId: string) => {
      if (socket.readyState !== WebSocket.OPEN) {
        log.debug({ ...P, envelope_id: envelopeId }, 'Slack socket closed before the ack; Slack will send the event again');
        return;
      }
      socket.send(JSON.stringify({ envelope_id: envelopeId }));
    };

    const handle = async (text: string) => {
      const frame = parseFrame(text, { botUserId: options.botUserId(), nowMs: nowMs() });
      switch (frame.kind) {
        case 'hello':
          helloSeen = true;
          clearTimeout(helloTimer);
          options.setState(options.connected());
          log.info(P, 'Slack: connected (Socket Mode)');
          return;
        case 'disconnect':
          // Slack closes the socket itself soon; closing now reconnects at once without losing
          // anything: unacknowledged events are sent again on the next socket.
          reason = `disconnect: ${frame.reason}`;
          log.info({ ...P, reason: frame.reason }, 'Slack asked to reconnect');
          socket.close(1000);
          return;
        case 'skip':
          if (frame.malformed) log.warn({ ...P, envelope_id: frame.envelopeId }, `Slack: skipped ${frame.reason}`);
          else log.debug({ ...P, envelope_id: frame.envelopeId }, `Slack: not answered: ${frame.reason}`);
          if (frame.envelopeId !== null) ack(frame.envelopeId);
          return;
        case 'message': {
          const { message } = frame;
          const context = { ...P, envelope_id: frame.envelopeId, chat_id: message.chatId, message_id: message.messageId, retry_attempt: frame.retryAttempt };
          try {
            await sink(message);
          } catch (error) {
            log.warn({ ...context, err: error instanceof Error ? error.message : String(error) }, 'Slack event not stored; not acknowledged (Slack sends it again)');
            return;
          }
          ack(frame.envelopeId);
          return;
        }
      }
    };

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        log.warn(P, 'Slack: skipped a binary frame');
        return;
      }
      const text = rawText(data);
      chain = chain.then(() => handle(text)).catch((error: unknown) => {
        log.error({ ...P, err: error instanceof Error ? error.message : String(error) }, 'Slack: a frame could not be handled');
      });
    });
    socket.on('error', (error) => {
      reason = `socket error: ${error.message}`;
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      clearInterval(pinger);
      signal.removeEventListener('abort', onAbort);
      // Whatever is being stored finishes (and is acked if it still can be) before the next socket.
      void chain.then(() => resolve({ helloSeen, reason }));
    });
  });
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}
