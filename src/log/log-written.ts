// Waiting until a log line is in the log file. A `deliver: log` webhook answer is its log line, so
// it must be written out before the event is marked delivered: a kill -9 right after must not lose
// it. pino's own `flush(cb)` cannot say that: its file stream (sonic-boom) calls back at once when
// `minLength` is 0, pino's default, while the line may still wait behind a write in progress.
//
// What this reads of sonic-boom: `_len`, the bytes it has taken and not yet written, and its
// `write` event, emitted with the bytes of each write that completed. Its queue is first in, first
// out, so the lines logged before a call are out once the bytes written since reach what was
// pending at the call; later lines do not hold the wait (sonic-boom's `drain` would: it waits for
// an empty queue). log-written.test.ts pins both against the installed sonic-boom.
import pino, { type Logger } from 'pino';
import { DROPPED_EVENT } from './drop-on-error.js';

type FileStream = {
  readonly _len?: unknown;
  on(event: 'write', listener: (bytes: number) => void): unknown;
  on(event: typeof DROPPED_EVENT, listener: (bytes: number) => void): unknown;
};

type Waiter = { readonly target: number; readonly resolve: () => void; readonly reject: (err: Error) => void; readonly timer: NodeJS.Timeout };
type Progress = { written: number; readonly waiters: Waiter[] };

/** How long a wait may take before it fails (a full disk, a file system that stopped answering). */
export const LOG_WRITTEN_TIMEOUT_MS = 10_000;

// One listener per stream, however many deliveries wait at once.
const progressOf = new WeakMap<FileStream, Progress>();

function track(stream: FileStream): Progress {
  const known = progressOf.get(stream);
  if (known) return known;
  const progress: Progress = { written: 0, waiters: [] };
  stream.on('write', (bytes) => {
    progress.written += bytes;
    // Targets only grow, so the waiters are in target order.
    while (progress.waiters.length > 0 && progress.waiters[0]!.target <= progress.written) {
      const waiter = progress.waiters.shift()!;
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
  });
  // A failed write dropped every byte the stream held (drop-on-error.ts), so every line still
  // waited for is gone: its delivery fails now (and is tried again later) rather than at the timeout.
  stream.on(DROPPED_EVENT, () => {
    for (const waiter of progress.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the log file could not take the line (the write failed, the line was dropped)'));
    }
  });
  progressOf.set(stream, progress);
  return progress;
}

/**
 * Resolves once every line logged so far is in the log file: handed to the kernel, so a kill -9
 * cannot lose it (not fsync'd: a power cut can). Rejects after `timeoutMs` without that, and for a
 * logger that does not write through a pino file stream.
 */
export function logWritten(log: Logger, timeoutMs = LOG_WRITTEN_TIMEOUT_MS): Promise<void> {
  const stream = (log as unknown as Record<symbol, FileStream | undefined>)[pino.symbols.streamSym];
  const pending = stream?._len;
  if (!stream || typeof pending !== 'number') return Promise.reject(new Error('the logger does not write through its own log file (pino.destination)'));
  if (pending === 0) return Promise.resolve();
  const progress = track(stream);
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      target: progress.written + pending,
      resolve,
      reject,
      timer: setTimeout(() => {
        progress.waiters.splice(progress.waiters.indexOf(waiter), 1);
        reject(new Error(`the log file did not take the line within ${timeoutMs / 1000} s`));
      }, timeoutMs).unref(),
    };
    progress.waiters.push(waiter);
  });
}
