// A log line that cannot be written is dropped and counted, never retried forever and never fatal.
// pino's file stream (sonic-boom) emits 'error' when a write fails for anything but EAGAIN (a full
// disk's ENOSPC, an I/O error): with no listener that killed the process, and the bytes it held
// stayed queued, so every later line tried the whole backlog again against the full disk. Here the
// error drops everything the stream held (each line is tried once), counts those lines, and tells
// the waiters of log-written.ts that the lines they waited for are gone (their delivery fails and
// is tried again later). The next line is written as usual, so the log resumes by itself when space
// returns.
//
// What this reads and resets of sonic-boom (4.x, pinned by drop-on-error.test.ts): `_bufs` (the
// strings not yet handed to a write), `_writingBuf` (the one that failed), `_len` (their bytes).
import type { EventEmitter } from 'node:events';

type SonicBoomState = EventEmitter & {
  _bufs?: unknown[];
  _lens?: number[];
  _writingBuf?: unknown;
  _len?: number;
  _writing?: boolean;
};

/** Emitted on the stream with the bytes dropped (log-written.ts fails its waiters). */
export const DROPPED_EVENT = 'iris:dropped';

let droppedLines = 0;

/** Log lines dropped by every logger of this process since it started (iris_log_lines_dropped_total). */
export function logLinesDropped(): number {
  return droppedLines;
}

const newlines = (chunk: unknown): number => {
  if (typeof chunk === 'string') {
    let n = 0;
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) n++;
    return n;
  }
  if (Array.isArray(chunk)) return chunk.reduce((sum: number, part) => sum + newlines(part), 0);
  if (Buffer.isBuffer(chunk)) return newlines(chunk.toString('utf8'));
  return 0;
};

/** Makes a failed write of `stream` drop what it held; `onDropped` hears each drop (lines, why). */
export function dropOnError(stream: EventEmitter, onDropped?: (lines: number, err: Error) => void): void {
  const state = stream as SonicBoomState;
  stream.on('error', (err: Error) => {
    const lines = newlines(state._writingBuf) + newlines(state._bufs);
    const bytes = state._len ?? 0;
    state._bufs = [];
    if (state._lens) state._lens = [];
    state._writingBuf = Buffer.isBuffer(state._writingBuf) ? Buffer.alloc(0) : '';
    state._len = 0;
    state._writing = false;
    droppedLines += lines;
    stream.emit(DROPPED_EVENT, bytes);
    onDropped?.(lines, err);
  });
}
