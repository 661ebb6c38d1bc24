// The poll loop on a scripted Bot API and an injected sleep: the exact pause after each kind of
// failure, and the states it reports. The wire itself is covered in adapter.test.ts.
import { describe, expect, it } from 'vitest';
import type { ConnectionState, InboundMessage, PlatformLog } from '../types.js';
import type { BotApi, BotApiResult } from './bot-api.js';
import { DEFAULT_BACKOFF } from './poll-state.js';
import { runPoller } from './poller.js';
import { StoreError } from '../../store/errors.js';

const silent: PlatformLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const message = (updateId: number, text: string) => ({
  update_id: updateId,
  message: { message_id: updateId, date: 1, chat: { id: 1, type: 'private' }, from: { id: 1 }, text },
});

/** Answers getUpdates from the script in turn; once it is used up, aborts the loop. */
function scripted(answers: BotApiResult[], controller: AbortController) {
  const params: Array<Record<string, unknown>> = [];
  const api: BotApi = {
    async call<T>(method: string, given: Readonly<Record<string, unknown>> = {}) {
      expect(method).toBe('getUpdates');
      params.push({ ...given });
      const next = answers.shift();
      if (!next) {
        controller.abort();
        return { ok: false, kind: 'network', reason: 'aborted', timedOut: false };
      }
      return next as BotApiResult<T>;
    },
  };
  return { api, params };
}

async function run(answers: BotApiResult[], sink: (message: InboundMessage) => Promise<void> = async () => {}, pollTimeout = 25) {
  const controller = new AbortController();
  const { api, params } = scripted(answers, controller);
  const pauses: number[] = [];
  const states: ConnectionState[] = [];
  await runPoller({
    api,
    pollTimeout,
    sink,
    log: silent,
    backoff: DEFAULT_BACKOFF,
    signal: controller.signal,
    setState: (state) => states.push(state),
    connected: () => ({ connected: true, detail: 'connected' }),
    sleep: async (ms) => {
      pauses.push(ms);
    },
  });
  return { params, pauses, states };
}

const network: BotApiResult = { ok: false, kind: 'network', reason: 'ECONNRESET', timedOut: false };
const api = (status: number, description: string, retryAfterMs?: number): BotApiResult => ({
  ok: false,
  kind: 'api',
  status,
  errorCode: status,
  description,
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe('runPoller', () => {
  it('asks with the long-poll timeout and for messages only', async () => {
    const { params } = await run([{ ok: true, result: [] }]);
    expect(params[0]).toEqual({ timeout: 25, allowed_updates: ['message'] });
  });

  it('doubles its pause on repeated failures, and starts over after a success', async () => {
    const { pauses, states } = await run([network, network, api(500, 'Internal Server Error'), network, network, network, network, { ok: true, result: [] }, network]);
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 1000]);
    expect(states.at(-2)).toEqual({ connected: true, detail: 'connected' });
  });

  it('waits the longest after 401 and what Telegram says after 429', async () => {
    const { pauses, states } = await run([api(401, 'Unauthorized'), api(429, 'Too Many Requests: retry after 9', 9000)]);
    expect(pauses).toEqual([30_000, 9000]);
    expect(states[0]).toEqual({ connected: false, detail: 'token rejected (401)' });
  });

  it('treats an answer that is not a list as a failure', async () => {
    const { pauses, states } = await run([{ ok: true, result: { not: 'a list' } }]);
    expect(pauses).toEqual([1000]);
    expect(states[0]).toEqual({ connected: false, detail: 'Telegram answered oddly: getUpdates did not return a list' });
  });

  it('after a failed sink, pauses and asks again from the same offset', async () => {
    let calls = 0;
    const { params, pauses } = await run(
      [{ ok: true, result: [message(5, 'a'), message(6, 'b')] }, { ok: true, result: [message(6, 'b')] }, { ok: true, result: [] }],
      async (inbound) => {
        calls += 1;
        if (inbound.text === 'b' && calls === 2) throw new Error('no room');
      },
    );
    expect(params.map((given) => given.offset)).toEqual([undefined, 6, 7, 7]);
    expect(pauses).toEqual([1000]);
  });

  it('skips an update the store refuses three times, and reads the next; a store that is away is waited for', async () => {
    const tries = new Map<string, number>();
    const stored: string[] = [];
    const { params } = await run(
      [
        { ok: true, result: [message(5, 'poison'), message(6, 'next')] },
        { ok: true, result: [message(5, 'poison'), message(6, 'next')] },
        { ok: true, result: [message(5, 'poison'), message(6, 'next')] },
        { ok: true, result: [message(7, 'later')] },
        { ok: true, result: [message(7, 'later')] },
        { ok: true, result: [] },
      ],
      async (inbound) => {
        const n = (tries.get(inbound.text) ?? 0) + 1;
        tries.set(inbound.text, n);
        if (inbound.text === 'poison') throw new StoreError('invalid', 'a value the store will not take');
        // Away for a moment: waited for, never skipped.
        if (inbound.text === 'later' && n === 1) throw new StoreError('io', 'cannot reach PostgreSQL');
        stored.push(inbound.text);
      },
    );
    expect(tries.get('poison')).toBe(3);
    expect(stored).toEqual(['next', 'later']);
    expect(params.map((given) => given.offset)).toEqual([undefined, undefined, undefined, 7, 7, 8, 8]);
  });

  it('pauses between empty short polls (poll_timeout 0), not between full ones', async () => {
    const { params, pauses } = await run([{ ok: true, result: [] }, { ok: true, result: [message(1, 'a')] }, { ok: true, result: [] }], async () => {}, 0);
    expect(params[0]).toEqual({ timeout: 0, allowed_updates: ['message'] });
    expect(pauses).toEqual([1000, 1000]);
  });

  it('acknowledges skipped updates too, even a whole batch of them', async () => {
    const { params } = await run([{ ok: true, result: [{ update_id: 10, edited_message: {} }, { update_id: 11, message: 'junk' }] }, { ok: true, result: [] }]);
    expect(params.map((given) => given.offset)).toEqual([undefined, 12, 12]);
  });
});
