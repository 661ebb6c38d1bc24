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
import { backoffMs, type Backoff } from '../../runtime/backoff.js';
import { sleep as realSleep, type Sleep } from '../../runtime/sleep.js';
import type { ConnectionState, PlatformLog } from '../types.js';
import { openConnection, type Dispatch } from './connection.js';
import { gatewayConnectUrl, openingFrame, readReady, type GatewaySession } from './protocol.js';
import { afterConnectionEnd, gatewayUrlOf } from './reconnect.js';
import type { DiscordRest } from './rest.js';

export type { Backoff };
/** 1 s, doubling, at most 30 s. */
export const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 1000, maxMs: 30_000 });

export type { Dispatch };

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

  /** READY or RESUMED: the failures in a row are over. */
  const connected = (): true => {
    failures = 0;
    lastDetail = '';
    options.setState({ connected: true, detail: botName ? `connected as ${botName}` : 'connected' });
    return true;
  };

  while (!signal.aborted) {
    if (!session && gatewayUrl === null) {
      const found = gatewayUrlOf(await rest.request<{ url?: unknown }>('GET', '/gateway/bot', { signal, timeoutMs: 10_000 }));
      if (signal.aborted) break;
      if (!found.ok) {
        failures += 1;
        // A rejected token will not heal soon: the longest pause.
        await fail(found.detail, found.tokenRejected ? options.backoff.maxMs : backoffMs(options.backoff, failures));
        continue;
      }
      gatewayUrl = found.url;
    }
    const base = current()?.resumeUrl ?? (gatewayUrl as string);
    let ready = false;
    const end = await openConnection(gatewayConnectUrl(base), { token, log, signal, jitter, startSeq: current()?.seq ?? null, onDispatch: options.onDispatch }, {
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
        botName = r.botName;
        ready = connected();
        log.info({ platform: 'discord', bot: r.botName }, 'Discord gateway: ready (new session)');
      },
      onResumed: () => {
        ready = connected();
        log.info({ platform: 'discord', seq: session?.seq }, 'Discord gateway: session resumed');
      },
      handled: (s) => {
        if (session && s !== null && s > session.seq) setSession({ ...session, seq: s });
      },
    });
    if (signal.aborted) break;
    const next = afterConnectionEnd(end, { ready, failures, hasSession: current() !== null, backoff: options.backoff });
    if (next.kind === 'identify_anew') {
      log.info({ platform: 'discord' }, 'Discord refused the RESUME (INVALID_SESSION): identifying anew');
      setSession(null);
      // Discord asks for a pause of 1–5 s before the new IDENTIFY.
      await sleep(Math.max(1000 * jitter(), options.backoff.firstMs), signal);
      continue;
    }
    if (next.clearSession) setSession(null);
    if (next.clearUrl) gatewayUrl = null;
    failures = next.failures;
    await fail(next.detail, next.delayMs);
  }
  options.setState({ connected: false, detail: 'stopped' });
}
