// What the Gateway loop (gateway.ts) does between connections, decided from values: the answer of
// GET /gateway/bot (the URL, or why there is none and how long to wait), and, when a connection
// ended, whether the session and the URL are kept, the failures count, and the pause before the
// next try. Pure: the loop keeps the state and does the I/O.
import { backoffMs, type Backoff } from '../../runtime/backoff.js';
import type { ConnectionEnd } from './connection.js';
import { closeDecision } from './protocol.js';
import type { RestResult } from './rest.js';

export type GatewayUrl = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly detail: string; readonly tokenRejected: boolean };

/** The URL GET /gateway/bot answered, or what went wrong in words for the platform's state. */
export function gatewayUrlOf(answer: RestResult<{ url?: unknown }>): GatewayUrl {
  if (answer.ok) return typeof answer.body?.url === 'string' ? { ok: true, url: answer.body.url } : { ok: false, detail: 'GET /gateway/bot answered without a url', tokenRejected: false };
  if (answer.kind === 'network') return { ok: false, detail: `Discord unreachable: ${answer.reason}`, tokenRejected: false };
  if (answer.status === 401) return { ok: false, detail: 'token rejected (401)', tokenRejected: true };
  return { ok: false, detail: `GET /gateway/bot: Discord ${answer.status}: ${answer.message}`, tokenRejected: false };
}

export type AfterEnd =
  /** INVALID_SESSION that may not be resumed: IDENTIFY anew after Discord's short pause. */
  | { readonly kind: 'identify_anew' }
  | {
      readonly kind: 'retry';
      /** The session ended (a fatal close, or one that cannot be resumed): the next try IDENTIFYs. */
      readonly clearSession: boolean;
      /** With no session to resume, the next try asks GET /gateway/bot again. */
      readonly clearUrl: boolean;
      readonly failures: number;
      readonly detail: string;
      readonly delayMs: number;
    };

/**
 * After a connection ended. `ready`: it got READY or RESUMED (a working connection that dropped
 * reconnects at once, unless a message was not stored); `failures`: failures in a row before it.
 * A fatal close (a bad token, intents not allowed) waits the longest pause: it will not heal soon.
 */
export function afterConnectionEnd(end: ConnectionEnd, input: { readonly ready: boolean; readonly failures: number; readonly hasSession: boolean; readonly backoff: Backoff }): AfterEnd {
  if (end.invalidSession && !end.resumable) return { kind: 'identify_anew' };
  const decision = end.invalidSession ? ({ next: 'resume', detail: 'session invalidated (resumable)' } as const) : closeDecision(end.code, end.reason);
  if (decision.next === 'fatal') return { kind: 'retry', clearSession: true, clearUrl: true, failures: input.failures + 1, detail: decision.detail, delayMs: input.backoff.maxMs };
  const clearSession = decision.next === 'identify';
  const failures = input.ready ? 1 : input.failures + 1;
  const why = end.sinkFailed ? 'a message was not stored; resuming to have it again' : end.zombie ? 'no HEARTBEAT_ACK; reconnecting' : decision.detail;
  return {
    kind: 'retry',
    clearSession,
    clearUrl: clearSession || !input.hasSession,
    failures,
    detail: `reconnecting: ${why}`,
    delayMs: input.ready && !end.sinkFailed ? 0 : backoffMs(input.backoff, failures),
  };
}
