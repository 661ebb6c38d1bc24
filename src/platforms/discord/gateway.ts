// The Gateway connection loop: GET /gateway/bot for the URL, connect, HELLO, heartbeats, IDENTIFY
// or RESUME, dispatches handed on in order, and after a drop a RESUME (on READY's
// resume_gateway_url, with the session id and the last sequence handled) with backoff. A full
// IDENTIFY happens only when there is no session or RESUME is refused (INVALID_SESSION d:false, or
// a close code that ends the session).
//
// Dispatches are handled one after another. The sequence used for RESUME moves past a dispatch
// only once it was handled (a message stored by the sink): when the sink fails, the connection is
// dropped and RESUME asks Discord to replay from the last one stored (at least once; the store
// dedups by message id). Heartbeats carry the last sequence received, as Discord asks.
import WebSocket from 'ws';
import { realSleep, type Sleep } from '../../delivery/retry.js';
import type { ConnectionState, PlatformLog } from '../types.js';
import { closeDecision, firstHeartbeatDelay, gatewayConnectUrl, heartbeatFrame, invalidSessionResumable, OP, openingFrame, parsePayload, readReady, type GatewaySession } from './protocol.js';
import type { DiscordRest } from './rest.js';

export type Backoff = { readonly firstMs: number; readonly maxMs: number };
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1000, maxMs: 30_000 });

export function backoffMs(backoff: Backoff, failures: number): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, failures - 1));
}

export type Dispatch = { readonly t: string; readonly d: unknown; readonly s: number | null };

export type GatewayOptions = {
  readonly rest: DiscordRest;
  readonly token: string;
  readonly log: PlatformLog;
  readonly backoff: Backoff;
  readonly signal: AbortSignal;
  readonly setState: (state: ConnectionState) => void;
  /** READY: the bot's own id (to skip its own posts and find its mentions). */
  readonly onReady: (bot: { id: string; name: string | null }) => void;
  /** Every dispatch but READY/RESUMED, in order; rejecting means "not stored": replayed after a RESUME. */
  readonly onDispatch: (dispatch: Dispatch) => Promise<void>;
  readonly sleep?: Sleep;
  /** 0..1 for the first heartbeat's delay (tests fix it). */
  readonly jitter?: () => number;
  /** A session an earlier process left (its last handled sequence): RESUMEd first, so nothing sent meanwhile is lost. */
  readonly initialSession?: GatewaySession | null;
  /** The session changed (READY, a dispatch handled, or null when it ended): for a later process to RESUME. */
  readonly onSession?: (session: GatewaySession | null) => void;
};

type ConnectionEnd = { readonly code: number; readonly reason: string; readonly invalidSession?: boolean; readonly resumable?: boolean; readonly sinkFailed?: boolean; readonly zombie?: boolean };

export async function runGateway(options: GatewayOptions): Promise<void> {
  const { log, signal, rest, token } = options;
  const sleep = options.sleep ?? realSleep;
  const jitter = options.jitter ?? Math.random;
  let session: GatewaySession | null = options.initialSession ?? null;
  const setSession = (next: GatewaySession | null) => {
    session = next;
    options.onSession?.(next);
  };
  // Closures (READY, a handled dispatch) replace the session; read it through here, not narrowed.
  const current = (): GatewaySession | null => session;
  let gatewayUrl: string | null = null;
  let failures = 0;
  let lastDetail = '';
  let botName: string | null = null;

  const fail = async (detail: string, delayMs: number) => {
    options.setState({ connected: false, detail });
    const fields = { platform: 'discord', failures, retryInMs: delayMs };
    if (detail !== lastDetail) log.warn(fields, `Discord gateway: ${detail}`);
    else log.debug(fields, `Discord gateway: ${detail}`);
    lastDetail = detail;
    await sleep(delayMs, signal);
  };

  while (!signal.aborted) {
    if (!session && gatewayUrl === null) {
      const answer = await rest.request<{ url?: unknown }>('GET', '/gateway/bot', { signal, timeoutMs: 10_000 });
      if (signal.aborted) break;
      if (!answer.ok || typeof answer.body?.url !== 'string') {
        failures += 1;
        const detail = !answer.ok ? (answer.kind === 'network' ? `Discord unreachable: ${answer.reason}` : answer.status === 401 ? 'token rejected (401)' : `GET /gateway/bot: Discord ${answer.status}: ${answer.message}`) : 'GET /gateway/bot answered without a url';
        await fail(detail, !answer.ok && answer.kind === 'api' && answer.status === 401 ? options.backoff.maxMs : backoffMs(options.backoff, failures));
        continue;
      }
      gatewayUrl = answer.body.url;
    }
    const base = current()?.resumeUrl ?? (gatewayUrl as string);
    let ready = false;
    const end = await connect(gatewayConnectUrl(base), {
      hello: () => openingFrame(token, current()),
      onReady: (d) => {
        const r = readReady(d);
        if (!r) {
          log.warn({ platform: 'discord' }, 'Discord READY without session_id/resume_gateway_url/user; treating the session as not resumable');
          return;
        }
        // The bot first: a saved session names it (a RESUME brings no READY).
        options.onReady({ id: r.botId, name: r.botName });
        setSession({ id: r.sessionId, resumeUrl: r.resumeUrl, seq: 0 });
        ready = true;
        failures = 0;
        lastDetail = '';
        botName = r.botName;
        options.setState({ connected: true, detail: r.botName ? `connected as ${r.botName}` : 'connected' });
        log.info({ platform: 'discord', bot: r.botName }, 'Discord gateway: ready (new session)');
      },
      onResumed: () => {
        ready = true;
        failures = 0;
        lastDetail = '';
        options.setState({ connected: true, detail: botName ? `connected as ${botName}` : 'connected' });
        log.info({ platform: 'discord', seq: session?.seq }, 'Discord gateway: session resumed');
      },
      handled: (s) => {
        if (session && s !== null && s > session.seq) setSession({ ...session, seq: s });
      },
    });
    if (signal.aborted) break;
    if (end.invalidSession && !end.resumable) {
      log.info({ platform: 'discord' }, 'Discord refused the RESUME (INVALID_SESSION): identifying anew');
      setSession(null);
      // Discord asks for a pause of 1–5 s before the new IDENTIFY.
      await sleep(Math.max(1000 * jitter(), options.backoff.firstMs), signal);
      continue;
    }
    const decision = end.invalidSession ? { next: 'resume' as const, detail: 'session invalidated (resumable)' } : closeDecision(end.code, end.reason);
    if (decision.next === 'fatal') {
      failures += 1;
      setSession(null);
      gatewayUrl = null;
      await fail(decision.detail, options.backoff.maxMs);
      continue;
    }
    if (decision.next === 'identify') setSession(null);
    if (!current()) gatewayUrl = null;
    failures = ready ? 1 : failures + 1;
    const why = end.sinkFailed ? 'a message was not stored; resuming to have it again' : end.zombie ? 'no HEARTBEAT_ACK; reconnecting' : decision.detail;
    await fail(`reconnecting: ${why}`, ready && !end.sinkFailed ? 0 : backoffMs(options.backoff, failures));
  }
  options.setState({ connected: false, detail: 'stopped' });

  type Handlers = {
    hello: () => object;
    onReady: (d: unknown) => void;
    onResumed: () => void;
    handled: (s: number | null) => void;
  };

  function connect(url: string, handlers: Handlers): Promise<ConnectionEnd> {
    return new Promise<ConnectionEnd>((resolve) => {
      const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
      let lastSeq: number | null = current()?.seq ?? null;
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
                  await options.onDispatch(dispatch);
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
}
