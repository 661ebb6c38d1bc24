// Sends what the outbox holds, for the platforms this process runs: woken when something was
// enqueued, on a timer for the next retry, and every second anyway (another process, `iris send`,
// may have enqueued). Each chat's messages go in order (the store hands out only a chat's oldest
// unsent one); different chats go side by side. A send never runs the agent: the text is stored.
import { errorMessage } from '../domain/error-message.js';
import type { OutboxRecord } from '../store/platform-types.js';
import type { Store } from '../store/types.js';
import { afterSend, OUTBOX_RETRY_MS } from './outbox-policy.js';
import { retryStoreWrite } from '../store/write-retry.js';
import type { PlatformAdapter, PlatformLog, PlatformName, SendResult } from './types.js';

export type OutboxDrainDeps = {
  readonly store: Store;
  readonly adapters: ReadonlyMap<PlatformName, PlatformAdapter>;
  readonly log: PlatformLog;
  readonly nowMs?: () => number;
  /** The pauses between tries (tests shorten them). */
  readonly retryMs?: readonly number[];
  /** The pauses between tries of recording an outcome the store failed (write-retry.ts; tests shorten them). */
  readonly writeRetryMs?: readonly number[];
  /** How often the outbox is looked at without being woken. */
  readonly everyMs?: number;
  readonly onOutcome?: (platform: PlatformName, outcome: 'sent' | 'retry' | 'failed') => void;
  /** Whether a process is alive: a message another live process is sending is left to it. */
  readonly isAlive?: (pid: number) => boolean;
};

/** How often messages left `sending` by a process that died meanwhile (a killed `iris send`) are put back. */
const RECOVER_EVERY_MS = 30_000;

const BATCH = 16;
/** A send that hangs is cut off (and retried) after this long. */
const SEND_TIMEOUT_MS = 30_000;

/** An outbox message's idempotency key: short (Discord's nonce takes 25 characters), the same on every try. */
export function outboxKey(id: number): string {
  return `iris-${id}`;
}

/** One send of one claimed outbox message, and its outcome recorded. */
async function sendOne(deps: OutboxDrainDeps, adapter: PlatformAdapter, record: OutboxRecord, signal: AbortSignal): Promise<void> {
  const { store, log } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const context = { outbox_id: record.id, platform: record.platform, chat_id: record.chatId, origin: record.origin, part: record.part, attempt: record.attempts + 1 };
  let result: SendResult;
  try {
    const message = { chatId: record.chatId, threadId: record.threadId, text: record.text, key: outboxKey(record.id), mayHaveBeenSent: record.triedBefore === true };
    result = await adapter.send(message, AbortSignal.any([signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]));
  } catch (err) {
    result = { ok: false, kind: 'retry', reason: `send failed: ${errorMessage(err)}` };
  }
  const next = afterSend(result, record.attempts, nowMs(), deps.retryMs ?? OUTBOX_RETRY_MS);
  deps.onOutcome?.(record.platform, next.kind);
  // Only when stopping (or a refusal of both writes): the row is recovered at the next start.
  const unrecorded = (reason: string) => log.error({ ...context, outcome: next.kind, err: reason }, 'platform message outcome could not be recorded; it is recovered at the next start');
  // The outcome must be recorded: a row left `sending` by this live process would hold its chat
  // until a restart. A store that is away is waited for; one that refuses the write has the row
  // failed instead (with why), so the chat's next messages go.
  const retry = { signal, delaysMs: deps.writeRetryMs, onRetry: (err: string, attempt: number, retryInMs: number) => log.warn({ ...context, err, attempt, retry_in_ms: retryInMs }, 'platform message outcome not recorded yet; trying again') };
  const persist = (write: () => Promise<void>) => retryStoreWrite(write, retry);
  if (next.kind === 'sent') {
    let recorded = await persist(() => store.platforms.markSent(record.id, next.messageId));
    if (!recorded.ok && !signal.aborted) {
      const why = `sent, but the store refused to record it: ${recorded.reason}`;
      recorded = await persist(() => store.platforms.markFailed(record.id, why));
    }
    if (recorded.ok) log.debug(context, 'platform message sent');
    else unrecorded(recorded.reason);
  } else if (next.kind === 'retry') {
    const recorded = await persist(() => store.platforms.scheduleRetry(record.id, next.at, next.reason));
    if (recorded.ok) log.warn({ ...context, reason: next.reason, retry_in_ms: next.at - nowMs() }, `platform message not sent, retried later: ${next.reason}`);
    else unrecorded(recorded.reason);
  } else {
    const recorded = await persist(() => store.platforms.markFailed(record.id, next.reason));
    if (recorded.ok) log.error({ ...context, reason: next.reason }, `platform message not sent: ${next.reason}`);
    else unrecorded(recorded.reason);
  }
}

/**
 * Sends every message of one platform that is due now (a batch is the heads of distinct chats:
 * they go side by side, then the next heads). `iris send` uses it when no gateway runs.
 */
export async function drainPlatformOnce(deps: OutboxDrainDeps, platform: PlatformName, adapter: PlatformAdapter, signal: AbortSignal): Promise<void> {
  const nowMs = deps.nowMs ?? Date.now;
  for (;;) {
    if (signal.aborted) return;
    const due = await deps.store.platforms.claimDueOutbox(platform, nowMs(), BATCH);
    if (due.length === 0) return;
    await Promise.all(due.map((record) => sendOne(deps, adapter, record, signal)));
  }
}

export function createOutboxDrain(deps: OutboxDrainDeps) {
  const { store, log } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let recoverTicker: NodeJS.Timeout | undefined;

  async function drainOnce(): Promise<void> {
    for (const [platform, adapter] of deps.adapters) await drainPlatformOnce(deps, platform, adapter, stopping.signal);
  }

  async function armTimer(): Promise<void> {
    clearTimeout(timer);
    const next = await store.platforms.nextOutboxAttempt();
    if (next === undefined || stopping.signal.aborted) return;
    timer = setTimeout(() => drain(), Math.max(0, next - nowMs()) + 5);
    timer.unref();
  }

  function drain(): void {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await drainOnce();
        } while (again && !stopping.signal.aborted);
        await armTimer();
      } catch (err) {
        log.error({ err: errorMessage(err) }, 'the platform outbox cannot be read; trying again shortly');
      } finally {
        running = undefined;
      }
    })();
  }

  return {
    /**
     * Puts back what a dead process left mid-send (it may have gone out: sent again, at-least-once;
     * a live one's, such as an `iris send` still sending, is left to it), then drains.
     */
    async start(): Promise<number> {
      const recover = () => store.platforms.recoverOutbox(deps.isAlive);
      const recovered = await recover();
      ticker = setInterval(() => drain(), deps.everyMs ?? 1_000);
      ticker.unref();
      recoverTicker = setInterval(() => {
        recover()
          .then((n) => {
            if (n > 0) drain();
          })
          .catch((err: unknown) => log.warn({ err: errorMessage(err) }, 'could not look for abandoned outbox sends'));
      }, RECOVER_EVERY_MS);
      recoverTicker.unref();
      drain();
      return recovered;
    },
    wake: drain,
    async stop(): Promise<void> {
      stopping.abort();
      clearTimeout(timer);
      clearInterval(ticker);
      clearInterval(recoverTicker);
      await running;
    },
  };
}

export type OutboxDrain = ReturnType<typeof createOutboxDrain>;
