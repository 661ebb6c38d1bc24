// A worker's subscriptions to the store's cross-process wakes (PostgreSQL's LISTEN/NOTIFY): the
// fast path for work another process added. Without them (SQLite, or a LISTEN connection that
// cannot be opened now) the worker's poll still finds the work, so a failure is a warning only.
import { errorMessage } from '../domain/error-message.js';

type WarnLog = { warn(fields: object, message: string): void };

/** What this needs of a store (its `wakeups`), by shape: the runtime floor sits below the store. */
type Wakeups<C extends string> = { subscribe(channel: C, onWake: () => void): Promise<() => Promise<void>> };

/** Subscribes each channel's wake; resolves to one function that ends them all. */
export async function subscribeWakes<C extends string>(
  store: { readonly wakeups?: Wakeups<C> | undefined },
  wakes: ReadonlyArray<readonly [C, () => void]>,
  log: WarnLog,
): Promise<() => Promise<void>> {
  const wakeups = store.wakeups;
  if (!wakeups) return async () => {};
  const ends: Array<() => Promise<void>> = [];
  for (const [channel, onWake] of wakes) {
    try {
      ends.push(await wakeups.subscribe(channel, onWake));
    } catch (err) {
      log.warn({ channel, err: errorMessage(err) }, `wakes from other processes (${channel}) are unavailable; new work is found by polling`);
    }
  }
  return async () => {
    for (const end of ends.splice(0)) await end().catch(() => {});
  };
}
