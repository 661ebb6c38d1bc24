// What a Messages API outcome means for the outbox (DECISIONS § Chat platforms: a 4xx other than
// 429 is permanent; 429 waits for Retry-After; 5xx, network errors and timeouts are retried).
// Pure. Twilio's error body is {code, message, more_info, status}; its code and message go into
// the reason so that `iris` can show why (21610: the recipient unsubscribed, and so on).
import type { SendResult } from '../types.js';
import type { ApiOutcome } from './messages-api.js';

/** Twilio's error code and message from an error body, e.g. "21604 A 'To' phone number is required." */
export function twilioErrorText(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const code = typeof record.code === 'number' || typeof record.code === 'string' ? String(record.code) : '';
  const message = typeof record.message === 'string' ? record.message.slice(0, 300) : '';
  const text = [code, message].filter((part) => part !== '').join(' ');
  return text === '' ? null : text;
}

/** Retry-After in milliseconds: delay-seconds only (what Twilio sends); anything else is ignored. */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header.trim()) * 1000;
}

function statusReason(status: number, body: unknown): string {
  const detail = twilioErrorText(body);
  return detail === null ? `Twilio answered ${status}` : `Twilio answered ${status}: ${detail}`;
}

export function classifySend(outcome: ApiOutcome): SendResult {
  if (outcome.kind === 'failed') return { ok: false, kind: 'retry', reason: outcome.reason };
  const { status, body } = outcome;
  if (status >= 200 && status < 300) {
    const sid = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).sid : undefined;
    return { ok: true, messageId: typeof sid === 'string' ? sid : null };
  }
  if (status === 429) {
    const wait = retryAfterMs(outcome.retryAfter);
    const reason = statusReason(status, body);
    return wait === undefined ? { ok: false, kind: 'retry', reason } : { ok: false, kind: 'retry', reason, retryAfterMs: wait };
  }
  if (status >= 400 && status < 500) return { ok: false, kind: 'permanent', reason: statusReason(status, body) };
  // 5xx, and anything no Twilio endpoint documents (1xx, 3xx): may pass, so try again later.
  return { ok: false, kind: 'retry', reason: statusReason(status, body) };
}
