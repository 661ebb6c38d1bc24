// One connection to the Discord Gateway, from the socket's opening to its end: HELLO, the
// heartbeats (a missing ACK ends it as a zombie), IDENTIFY or RESUME (the frame `hello` gives), and
// the dispatches, handed on one after another. It resolves with how it ended once everything
// received was handled, so the next RESUME names the right sequence. gateway.ts decides what comes
// after.
import WebSocket from 'ws';
import type { PlatformLog } from '../types.js';
import { firstHeartbeatDelay, heartbeatFrame, invalidSessionResumable, OP, parsePayload } from './protocol.js';

export type Dispatch = { readonly t: string; readonly d: unknown; readonly s: number | null };

export type ConnectionEnd = { readonly code: number; readonly reason: string; readonly invalidSession?: boolean; readonly resumable?: boolean; readonly sinkFailed?: boolean; readonly zombie?: boolean };

export type ConnectionDeps = {
  readonly token: string;
  readonly log: PlatformLog;
  readonly signal: AbortSignal;
  readonly jitter: () => number;
  /** The last sequence handled before this connection (heartbeats carry the last one received). */
  readonly startSeq: number | null;
  /** Every dispatch but READY/RESUMED, in order; rejecting means "not stored": the connection drops. */
  readonly onDispatch: (dispatch: Dispatch) => Promise<void>;
};

export type ConnectionHandlers = {
  readonly hello: () => object;
  readonly onReady: (d: unknown) => void;
  readonly onResumed: () => void;
  readonly handled: (s: number | null) => void;
};

export function openConnection(url: string, deps: ConnectionDeps, handlers: ConnectionHandlers): Promise<ConnectionEnd> {
  const { token, log, signal, jitter, onDispatch } = deps;
  return new Promise<ConnectionEnd>((resolve) => {
    const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
    let lastSeq: number | null = deps.startSeq;
    let heartbeat: NodeJS.Timeout | undefined;
    let acked = true;
    let chain: Promise<void> = Promise.resolve();
    let broken = false;
    let ended: ConnectionEnd | null = null;
    let settled = false;

    const send = (frame: object) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
    };
    const finish = (end: ConnectionEnd) => {
      if (ended === null) ended = end;
      broken = true;
      clearTimeout(heartbeat);
      clearInterval(heartbeat);
      signal.removeEventListener('abort', onAbort);
      // Whatever was received is handled before the next RESUME names a sequence.
      void chain.then(() => {
        if (settled) return;
        settled = true;
        resolve(ended as ConnectionEnd);
      });
    };
    /** Ends this connection without ending the session (a close code other than 1000/1001). */
    const drop = (end: ConnectionEnd) => {
      if (ended === null) ended = end;
      broken = true;
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      finish(end);
    };
    const onAbort = () => {
      ended ??= { code: 1000, reason: 'stopping' };
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'stopping');
      else ws.terminate();
      finish(ended);
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const beat = () => {
      if (!acked) {
        drop({ code: 4000, reason: 'no heartbeat ack', zombie: true });
        return;
      }
      acked = false;
      send(heartbeatFrame(lastSeq));
    };

    ws.on('message', (data: WebSocket.RawData) => {
      const text = (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data))).toString('utf8');
      const payload = parsePayload(text);
      if (!payload) {
        log.warn({ platform: 'discord' }, 'Discord gateway sent a frame that is not a payload; ignored');
        return;
      }
      if (payload.s !== null) lastSeq = payload.s;
      switch (payload.op) {
        case OP.HELLO: {
          const interval = (payload.d as { heartbeat_interval?: unknown } | null)?.heartbeat_interval;
          if (typeof interval !== 'number' || interval <= 0) {
            drop({ code: 4000, reason: 'HELLO without heartbeat_interval' });
            return;
          }
          clearTimeout(heartbeat);
          heartbeat = setTimeout(() => {
            beat();
            heartbeat = setInterval(beat, interval);
          }, firstHeartbeatDelay(interval, jitter()));
          send(handlers.hello());
          return;
        }
        case OP.HEARTBEAT:
          send(heartbeatFrame(lastSeq));
          return;
        case OP.HEARTBEAT_ACK:
          acked = true;
          return;
        case OP.RECONNECT:
          log.info({ platform: 'discord' }, 'Discord asked for a reconnect (op 7)');
          drop({ code: 4000, reason: 'RECONNECT requested' });
          return;
        case OP.INVALID_SESSION:
          drop({ code: 4000, reason: 'invalid session', invalidSession: true, resumable: invalidSessionResumable(payload.d) });
          return;
        case OP.DISPATCH: {
          const dispatch = { t: payload.t ?? '', d: payload.d, s: payload.s };
          chain = chain.then(async () => {
            if (broken && dispatch.t !== 'READY') return;
            if (dispatch.t === 'READY') handlers.onReady(dispatch.d);
            else if (dispatch.t === 'RESUMED') handlers.onResumed();
            else {
              try {
                await onDispatch(dispatch);
              } catch (error) {
                log.error({ platform: 'discord', seq: dispatch.s, event: dispatch.t, err: error instanceof Error ? error.message : String(error) }, 'Discord event not stored; resuming to have it again');
                drop({ code: 4000, reason: 'sink failed', sinkFailed: true });
                return;
              }
            }
            handlers.handled(dispatch.s);
          });
          return;
        }
        default:
          log.debug({ platform: 'discord', op: payload.op }, 'Discord gateway: unknown op ignored');
      }
    });
    ws.on('close', (code: number, reason: Buffer) => finish({ code, reason: reason.toString('utf8') }));
    ws.on('error', (error: Error) => {
      log.debug({ platform: 'discord', err: error.message }, 'Discord gateway socket error');
      drop({ code: 4000, reason: `socket error: ${error.message.split(token).join('<redacted>')}` });
    });
  });
}
