// The one pause every retry loop uses. It resolves after `ms`, or early (never throwing) when the
// signal aborts, and it always takes its abort listener off again: a long-lived signal (a
// gateway's, a platform's) is given one listener per pause only while that pause lasts, so a
// thousand retries leave none behind.
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
