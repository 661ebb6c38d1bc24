// How a failed Bot API call ends for the outbox: worth another try later, or never. Pure.
//
// 429 carries Telegram's own wait (`parameters.retry_after`); 5xx and a missing answer are the
// service's trouble and pass; every other 4xx (bad chat, blocked by the user, bad token, too long)
// will fail the same way again.
import type { SendResult } from '../types.js';
import type { BotApiFailure } from './bot-api.js';

export function classifySendFailure(failure: BotApiFailure): Exclude<SendResult, { ok: true }> {
  if (failure.kind === 'network') {
    return { ok: false, kind: 'retry', reason: `Telegram did not answer: ${failure.reason}` };
  }
  const reason = `Telegram ${failure.status}: ${failure.description}`;
  if (failure.status === 429) {
    return {
      ok: false,
      kind: 'retry',
      reason,
      ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
    };
  }
  if (failure.status >= 400 && failure.status < 500) return { ok: false, kind: 'permanent', reason };
  // 5xx, and anything stranger (a redirect from a misconfigured proxy): not this message's fault.
  return { ok: false, kind: 'retry', reason };
}

/**
 * Telegram refused the HTML itself (unbalanced or unknown tags): the same text as plain text
 * will go through, so `send` tries once more without `parse_mode`.
 */
export function isEntityParseError(failure: BotApiFailure): failure is Extract<BotApiFailure, { kind: 'api' }> {
  return failure.kind === 'api' && failure.status === 400 && /can't parse entities/i.test(failure.description);
}
