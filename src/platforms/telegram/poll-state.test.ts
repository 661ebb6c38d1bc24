import { describe, expect, it } from 'vitest';
import type { BotApiFailure } from './bot-api.js';
import { DEFAULT_BACKOFF, backoffMs, describeFailure, failureState, pollDelayMs } from './poll-state.js';

const api = (status: number, description: string, retryAfterMs?: number): BotApiFailure => ({
  ok: false,
  kind: 'api',
  status,
  errorCode: status,
  description,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});
const network: BotApiFailure = { ok: false, kind: 'network', reason: 'fetch failed: ECONNRESET', timedOut: false };

describe('backoffMs', () => {
  it('doubles from 1 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => backoffMs(DEFAULT_BACKOFF, failures))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('follows a given schedule', () => {
    expect([1, 2, 3].map((failures) => backoffMs({ firstMs: 10, maxMs: 25 }, failures))).toEqual([10, 20, 25]);
  });
});

describe('pollDelayMs', () => {
  it('waits the longest after a rejected token', () => {
    expect(pollDelayMs(api(401, 'Unauthorized'), 1, DEFAULT_BACKOFF)).toBe(30_000);
  });

  it('waits what Telegram asks on 429', () => {
    expect(pollDelayMs(api(429, 'Too Many Requests: retry after 3', 3000), 1, DEFAULT_BACKOFF)).toBe(3000);
  });

  it('backs off on network errors, 5xx and 409', () => {
    expect(pollDelayMs(network, 3, DEFAULT_BACKOFF)).toBe(4000);
    expect(pollDelayMs(api(502, 'Bad Gateway'), 2, DEFAULT_BACKOFF)).toBe(2000);
    expect(pollDelayMs(api(409, 'Conflict: terminated by other getUpdates request'), 1, DEFAULT_BACKOFF)).toBe(1000);
  });
});

describe('describeFailure', () => {
  it.each([
    [api(401, 'Unauthorized'), 'token rejected (401)'],
    [api(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'), 'conflict (409): another poller is using this bot token (a second gateway or another program)'],
    [api(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"), 'conflict (409): a webhook is set for this bot, so getUpdates cannot run; remove it (deleteWebhook) to poll'],
    [api(429, 'Too Many Requests: retry after 5', 5000), 'rate limited by Telegram (429): Too Many Requests: retry after 5'],
    [api(500, 'Internal Server Error'), 'Telegram 500: Internal Server Error'],
    [network, 'Telegram unreachable: fetch failed: ECONNRESET'],
    [{ ok: false, kind: 'malformed', reason: 'getUpdates did not return a list' } as const, 'Telegram answered oddly: getUpdates did not return a list'],
  ])('%j → %s', (failure, detail) => {
    expect(describeFailure(failure)).toBe(detail);
    expect(failureState(failure)).toEqual({ connected: false, detail });
  });
});
