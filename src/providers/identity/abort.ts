// Giving up on work that cannot be cancelled from outside. Some SDK calls ignore an AbortSignal
// (MSAL's token requests take none), so the chain races them against its signal: the caller gets
// control back at once, and the late result, if any, is dropped.

/** Why the chain's signal fired: the overall timeout, or every caller gave up. */
export const STOP_REASONS = { timeout: 'timeout', cancelled: 'cancelled' } as const;
export type StopReason = (typeof STOP_REASONS)[keyof typeof STOP_REASONS];

export function stopReason(signal: AbortSignal): StopReason | undefined {
  if (!signal.aborted) return undefined;
  return signal.reason === STOP_REASONS.timeout ? 'timeout' : 'cancelled';
}

export const ABORTED: unique symbol = Symbol('aborted');

export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    work.catch(() => undefined); // a late rejection must not become an unhandled one
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
