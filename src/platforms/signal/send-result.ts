// How a `send` call's outcome maps to the platform layer's SendResult. Pure.
//
// signal-cli's JSON-RPC error codes (SignalJsonRpcCommandHandler and JsonRpcResponse.Error in
// AsamK/signal-cli; the same numbers as its exit codes in signal-cli(1)):
//   -1 USER_ERROR          "No recipients given", "Invalid phone number …", "The user … is not
//                          registered.", "Group not found: …", "Invalid group id: …", and
//                          "Failed to send message" when no recipient got it (then `data.response`
//                          holds `{timestamp, results}` and each result has a `type`)
//   -3 IO_ERROR            an I/O failure in the daemon
//   -4 UNTRUSTED_KEY_ERROR every recipient's safety number changed; someone must trust it
//   -5 RATELIMIT_ERROR     "Failed to send message due to rate limiting"; the results carry
//                          `retryAfterSeconds` when the server said
//   -6 CAPTCHA_REJECTED_ERROR
//   -32600 invalid request (also params of the wrong JSON type), -32601 method not found,
//   -32602 invalid params ("Specified account does not exist", "Method requires valid account
//   parameter"), -32603 internal error: UnexpectedErrorException, which is how an IOException in
//   sending surfaces ("Failed to send message: … (IOException)")
// The daemon answers HTTP 200 for all of these; other statuses come from the HTTP layer or a proxy.
import type { SendResult } from '../types.js';
import type { RpcOutcome } from './rpc.js';

export const SIGNAL_ERROR = Object.freeze({
  USER: -1,
  IO: -3,
  UNTRUSTED_KEY: -4,
  RATE_LIMIT: -5,
  CAPTCHA_REJECTED: -6,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
} as const);

/** Result types (JsonSendMessageResult.Type) a later try can get past. */
const TRANSIENT_RESULT_TYPES: ReadonlySet<string> = new Set(['NETWORK_FAILURE', 'RATE_LIMIT_FAILURE']);

export function classifySendOutcome(outcome: RpcOutcome): SendResult {
  switch (outcome.kind) {
    case 'result':
      return { ok: true, messageId: sentTimestamp(outcome.result) };
    case 'cancelled':
      return { ok: false, kind: 'retry', reason: 'cancelled before the daemon answered' };
    case 'timeout':
      return { ok: false, kind: 'retry', reason: 'the signal-cli daemon did not answer in time' };
    case 'network':
      return { ok: false, kind: 'retry', reason: `signal-cli daemon unreachable: ${outcome.message}` };
    case 'bad_response':
      // The daemon may have sent it; a retry may duplicate, but losing the answer is worse.
      return { ok: false, kind: 'retry', reason: `unreadable answer from the daemon: ${outcome.detail}` };
    case 'http':
      return classifyHttp(outcome.status, outcome.retryAfter);
    case 'rpc_error':
      return classifyRpcError(outcome.code, outcome.message, outcome.data);
  }
}

function classifyHttp(status: number, retryAfter: string | null): SendResult {
  const reason = `HTTP ${status} from the signal-cli daemon`;
  if (status === 429) {
    const ms = retryAfterMs(retryAfter);
    return ms === undefined ? { ok: false, kind: 'retry', reason } : { ok: false, kind: 'retry', reason, retryAfterMs: ms };
  }
  if (status >= 500) return { ok: false, kind: 'retry', reason };
  return { ok: false, kind: 'permanent', reason };
}

function classifyRpcError(code: number, message: string, data: unknown): SendResult {
  const reason = `signal-cli error ${code}: ${message || '(no message)'}`;
  switch (code) {
    case SIGNAL_ERROR.RATE_LIMIT: {
      const seconds = maxRetryAfterSeconds(data);
      return seconds === undefined
        ? { ok: false, kind: 'retry', reason }
        : { ok: false, kind: 'retry', reason, retryAfterMs: seconds * 1000 };
    }
    case SIGNAL_ERROR.IO:
    case SIGNAL_ERROR.INTERNAL:
      return { ok: false, kind: 'retry', reason };
    case SIGNAL_ERROR.USER: {
      // "Failed to send message" with only network or rate-limit failures in the results is a
      // passing outage, not a bad recipient.
      const types = resultTypes(data);
      const failed = types.filter((type) => type !== 'SUCCESS');
      if (failed.length > 0 && failed.every((type) => TRANSIENT_RESULT_TYPES.has(type))) {
        const seconds = maxRetryAfterSeconds(data);
        return seconds === undefined
          ? { ok: false, kind: 'retry', reason }
          : { ok: false, kind: 'retry', reason, retryAfterMs: seconds * 1000 };
      }
      return { ok: false, kind: 'permanent', reason };
    }
    default:
      // -4 untrusted key and -6 captcha need a person; the -326xx codes mean our request is wrong.
      return { ok: false, kind: 'permanent', reason };
  }
}

/** The sent message's timestamp is its id in Signal (quotes, reactions and edits name it). */
function sentTimestamp(result: unknown): string | null {
  const timestamp = (result as { timestamp?: unknown } | null)?.timestamp;
  return typeof timestamp === 'number' && Number.isFinite(timestamp) ? String(timestamp) : null;
}

function sendResults(data: unknown): readonly unknown[] {
  const results = (data as { response?: { results?: unknown } } | null)?.response?.results;
  return Array.isArray(results) ? results : [];
}

function resultTypes(data: unknown): string[] {
  return sendResults(data)
    .map((result) => (result as { type?: unknown } | null)?.type)
    .filter((type): type is string => typeof type === 'string');
}

function maxRetryAfterSeconds(data: unknown): number | undefined {
  const seconds = sendResults(data)
    .map((result) => (result as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds)
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0);
  return seconds.length === 0 ? undefined : Math.max(...seconds);
}

/** `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3); undefined when unreadable. */
export function retryAfterMs(header: string | null, nowMs: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month; Date.parse alone would read "-1" as the year -1.
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
