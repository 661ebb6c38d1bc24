// The getUpdates long-poll loop. Telegram keeps each update until a getUpdates asks with an
// offset above its update_id, so the offset here is the acknowledgement: it moves past an update
// only once the sink has stored it (or the update was skipped). A sink that fails leaves the
// offset where it was; Telegram hands the same updates over again and the platform layer dedups.
//
// An update the store refuses outright (a value it will not take, not a store that is away) is
// tried MAX_REFUSALS times, then skipped with its reason in the log, so one message can never stop
// the bot; a store that is away is waited for (nothing is ever skipped for that).
//
// The offset lives in memory only. After a restart the first getUpdates names no offset and gets
// the earliest unconfirmed update, which is exactly the first one not yet stored.
import { sleep as realSleep, type Sleep } from '../../runtime/sleep.js';
import type { ConnectionState, InboundSink, PlatformLog } from '../types.js';
import type { BotApi } from './bot-api.js';
import { backoffMs, describeFailure, failureState, pollDelayMs, type Backoff, type PollFailure } from './poll-state.js';
import { parseUpdate } from './updates.js';
import { isTransientStoreFailure } from '../../store/write-retry.js';

/** Tries of one update the store refuses before it is skipped. */
export const MAX_REFUSALS = 3;

/** Beyond the long poll's own timeout, how long an answer may take before the call is given up. */
const POLL_MARGIN_MS = 10_000;

export type PollerOptions = {
  readonly api: BotApi;
  /** Seconds each getUpdates waits for news (`extra.poll_timeout`). */
  readonly pollTimeout: number;
  readonly sink: InboundSink;
  readonly log: PlatformLog;
  readonly backoff: Backoff;
  /** Aborting it ends the loop: the poll in flight is abandoned, pauses end early. */
  readonly signal: AbortSignal;
  readonly setState: (state: ConnectionState) => void;
  /** The state after a successful poll ("connected as @bot"). */
  readonly connected: () => ConnectionState;
  readonly sleep?: Sleep;
};

export async function runPoller(options: PollerOptions): Promise<void> {
  const { api, log, signal } = options;
  const sleep = options.sleep ?? realSleep;
  let offset: number | undefined;
  let failures = 0;
  // A long outage repeats the same failure every 30 s: warn when it changes, not every time.
  let lastFailure = '';
  // The update the store last refused, and how many times in a row.
  let refused: { readonly updateId: number; count: number } | undefined;

  const pause = async (ms: number) => {
    await sleep(ms, signal);
  };

  while (!signal.aborted) {
    const answer = await api.call<unknown>(
      'getUpdates',
      { ...(offset !== undefined ? { offset } : {}), timeout: options.pollTimeout, allowed_updates: ['message'] },
      { signal, timeoutMs: options.pollTimeout * 1000 + POLL_MARGIN_MS },
    );
    if (signal.aborted) break;

    if (!answer.ok || !Array.isArray(answer.result)) {
      const failure: PollFailure = answer.ok ? { ok: false, kind: 'malformed', reason: 'getUpdates did not return a list' } : answer;
      failures += 1;
      options.setState(failureState(failure));
      const delay = pollDelayMs(failure, failures, options.backoff);
      const detail = describeFailure(failure);
      const fields = { platform: 'telegram', failures, retryInMs: delay };
      if (detail !== lastFailure) log.warn(fields, `Telegram getUpdates failed: ${detail}`);
      else log.debug(fields, `Telegram getUpdates failed again: ${detail}`);
      lastFailure = detail;
      await pause(delay);
      continue;
    }

    if (lastFailure !== '') log.info({ platform: 'telegram', failures }, 'Telegram polling again');
    lastFailure = '';
    options.setState(options.connected());
    const updates: readonly unknown[] = answer.result;
    let sinkFailed = false;
    for (const raw of updates) {
      const parsed = parseUpdate(raw);
      if (parsed.kind === 'skip') {
        const fields = { platform: 'telegram', updateId: parsed.updateId, reason: parsed.reason };
        if (parsed.malformed) log.warn(fields, 'Telegram update skipped: malformed');
        else log.debug(fields, 'Telegram update skipped');
        if (parsed.updateId !== null) offset = Math.max(offset ?? 0, parsed.updateId + 1);
        continue;
      }
      try {
        await options.sink(parsed.message);
      } catch (error) {
        if (!isTransientStoreFailure(error)) {
          refused = refused?.updateId === parsed.updateId ? { updateId: parsed.updateId, count: refused.count + 1 } : { updateId: parsed.updateId, count: 1 };
          if (refused.count >= MAX_REFUSALS) {
            log.error(
              { platform: 'telegram', updateId: parsed.updateId, chatId: parsed.message.chatId, messageId: parsed.message.messageId, err: errorText(error), tries: refused.count },
              'Telegram message refused by the store every time; skipped so that the next ones are read',
            );
            offset = Math.max(offset ?? 0, parsed.updateId + 1);
            continue;
          }
        }
        sinkFailed = true;
        log.error(
          { platform: 'telegram', updateId: parsed.updateId, chatId: parsed.message.chatId, messageId: parsed.message.messageId, err: errorText(error) },
          'Telegram message not stored; it stays unconfirmed and comes again',
        );
        break;
      }
      offset = Math.max(offset ?? 0, parsed.updateId + 1);
      if (signal.aborted) break;
    }

    if (sinkFailed) {
      failures += 1;
      await pause(backoffMs(options.backoff, failures));
    } else {
      failures = 0;
      // poll_timeout 0 is short polling: without a pause an idle bot would ask nonstop.
      if (options.pollTimeout === 0 && updates.length === 0) await pause(options.backoff.firstMs);
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
