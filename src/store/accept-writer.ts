// The webhook inbox's accept path on a thread of its own, for the gateway. A 202 tells the code host
// that the event is safe, and it does not send it again, so the write under a 202 must survive a
// power cut: this thread's connection commits with `synchronous = FULL` (the WAL is fsync'd at
// every commit). The fsync then costs the event loop nothing: the main thread only does HTTP,
// HMAC and parsing, and hears back with the ids once the batch is on disk.
//
// Group commit: while one batch is being written and fsync'd, the events that arrive meanwhile
// wait, and go together as the next batch, so the batch grows with the disk's latency and one fsync
// covers many events under load. Alone, an event waits for its own commit only. Passive
// checkpoints are the checkpoint thread's job (checkpoint-worker.ts); this thread only finishes
// one when the WAL has grown past its bound.
import { Worker } from 'node:worker_threads';
import { StoreError, toStoreError } from './errors.js';
import type { AcceptOutcome, NewWebhookEvent } from './webhook-types.js';
import { ACCEPT_SQL } from './webhook-inbox.js';
import { WAL_HEADER_BYTES, walBytesInUse } from './wal-index.js';

export type AcceptWriterOptions = {
  readonly busyTimeoutMs: number;
  /** A WAL with more than this in use is checkpointed to its end (RESTART) between two commits. */
  readonly restartBytes: number;
  /** The WAL file is cut back to this many bytes after a reset (`journal_size_limit`). */
  readonly journalSizeLimit: number;
};

export type AcceptWriter = {
  accept(event: NewWebhookEvent, dedupSince: number): Promise<AcceptOutcome>;
  /** Writes what is queued, then closes the thread's connection. */
  stop(): Promise<void>;
};

type Reply =
  | { readonly ready: true }
  /** Per event: its outcome, or why that event alone could not be written (the batch was split). */
  | { readonly seq: number; readonly outcomes: (AcceptOutcome | { readonly error: WriterError })[] }
  | { readonly seq: number; readonly error: WriterError };

type WriterError = { readonly message: string; readonly code?: string };

const failureOf = (error: WriterError, path: string): StoreError => toStoreError(Object.assign(new Error(error.message), { code: error.code }), path);

// CommonJS on purpose: an eval'd worker has require(), and the driver is a CommonJS native addon.
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const errorOf = (err) => ({ message: String((err && err.message) || err), code: err && err.code });
const WHOLE_STORE_FAILURE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|CORRUPT|CANTOPEN|NOMEM|NOTADB|PERM)/;
function open() {
  const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
  db.pragma('synchronous = FULL');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
  return db;
}
// Under steady load the checkpoint thread's passive passes never reach the WAL's end (this thread
// keeps appending), so the WAL is never fully copied when a commit begins and never starts over.
// Between two of its own commits this thread can finish the copy: a RESTART checkpoint, once the
// WAL in use has passed restartBytes, after which the next commit writes the WAL from its start.
// In use, not the file's size: the file is only cut back to journal_size_limit after a reset, so
// it stays past restartBytes once it got there, and every look would restart (wal-index.ts).
const LOOK_EVERY_BATCHES = 8;
const RESTART_WAIT_MS = 200;
const walBytesInUse = (${walBytesInUse.toString()});
let batchesSinceLook = 0;
let restartIfLarge = () => {};
function serve(db) {
  const fs = require('node:fs');
  const header = Buffer.alloc(${WAL_HEADER_BYTES});
  const frame = Buffer.alloc(16);
  // The WAL file's own descriptor, opened for each look: SQLite never locks that file, so closing
  // it drops no lock of the connections (unlike -shm). No WAL yet: nothing to do. A read that
  // fails otherwise counts the whole file, so the WAL stays bounded whatever happens.
  const walInUse = () => {
    let fd;
    try {
      fd = fs.openSync(workerData.path + '-wal', 'r');
      const size = fs.fstatSync(fd).size;
      if (fs.readSync(fd, header, 0, header.length, 0) < header.length) return 0;
      return walBytesInUse(header, size, (offset) => (fs.readSync(fd, frame, 0, frame.length, offset) === frame.length ? frame : undefined));
    } catch (err) {
      if (err && err.code === 'ENOENT') return 0;
      try {
        return fs.statSync(workerData.path + '-wal').size;
      } catch {
        return 0;
      }
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  };
  restartIfLarge = () => {
    try {
      if (walInUse() <= workerData.restartBytes) return;
      // A reader on an old snapshot makes RESTART wait; the accepts queued behind it must not wait
      // long for that, so it gets a short busy timeout and is simply tried again later.
      db.pragma('busy_timeout = ' + RESTART_WAIT_MS);
      try {
        db.pragma('wal_checkpoint(RESTART)');
      } finally {
        db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
      }
    } catch {
      // Busy: the next look tries again; the WAL stays valid meanwhile.
    }
  };
  const remember = db.prepare(workerData.sql.remember);
  const insert = db.prepare(workerData.sql.insert);
  const acceptBatch = db.transaction((batch) => batch.map(([event, dedupSince]) => {
    if (event.deduplicate) {
      if (remember.run(event.route, event.deliveryId, event.receivedAt, dedupSince).changes === 0) return { status: 'duplicate' };
    }
    const info = insert.run({ route: event.route, deliveryId: event.deliveryId, event: event.event, payload: event.payload, routeSnapshot: event.routeSnapshot, receivedAt: event.receivedAt, lane: event.lane === undefined ? null : event.lane, runAfter: event.runAfter === undefined ? null : event.runAfter });
    return { status: 'accepted', id: Number(info.lastInsertRowid) };
  }));
  parentPort.on('message', (message) => {
    if (message.stop) {
      db.close();
      parentPort.close();
      return;
    }
    try {
      parentPort.postMessage({ seq: message.seq, outcomes: acceptBatch.immediate(message.batch) });
    } catch (err) {
      // One event the database refuses must not fail its neighbours: the batch is written again
      // one event at a time. A store that cannot write at all (full, failing, locked) fails them all.
      if (message.batch.length === 1 || WHOLE_STORE_FAILURE.test(String(err && err.code))) {
        parentPort.postMessage({ seq: message.seq, error: errorOf(err) });
      } else {
        const outcomes = message.batch.map((item) => {
          try {
            return acceptBatch.immediate([item])[0];
          } catch (itemErr) {
            return { error: errorOf(itemErr) };
          }
        });
        parentPort.postMessage({ seq: message.seq, outcomes });
      }
    }
    if (++batchesSinceLook >= LOOK_EVERY_BATCHES) {
      batchesSinceLook = 0;
      restartIfLarge();
    }
  });
  parentPort.postMessage({ ready: true });
}
let db;
try {
  db = open();
} catch (err) {
  parentPort.postMessage({ seq: -1, error: errorOf(err) });
}
if (db) serve(db);
`;

/** Batches handed to the thread and not answered yet: the next one waits in its port, so the thread never idles between them. */
const MAX_IN_FLIGHT = 2;

type Pending = { readonly event: NewWebhookEvent; readonly dedupSince: number; readonly resolve: (o: AcceptOutcome) => void; readonly reject: (e: unknown) => void };

/** Starts the thread and resolves once its connection is open (or rejects with why it is not). */
export function startAcceptWriter(driverPath: string, path: string, options: AcceptWriterOptions): Promise<AcceptWriter> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: driverPath, path, ...options, sql: ACCEPT_SQL } });
  let queued: Pending[] = [];
  const inFlight = new Map<number, Pending[]>();
  let seq = 0;
  let scheduled = false;
  let dead: Error | undefined;
  let stopping: Promise<void> | undefined;
  let onIdle: (() => void) | undefined;

  const failAll = (err: Error) => {
    dead ??= err;
    for (const p of [...[...inFlight.values()].flat(), ...queued]) p.reject(dead);
    inFlight.clear();
    queued = [];
    onIdle?.();
  };

  const send = () => {
    scheduled = false;
    if (inFlight.size >= MAX_IN_FLIGHT || queued.length === 0 || dead) return;
    const batch = queued;
    queued = [];
    inFlight.set(++seq, batch);
    worker.postMessage({ seq, batch: batch.map((p) => [p.event, p.dedupSince]) });
  };

  return new Promise<AcceptWriter>((resolveStart, rejectStart) => {
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        resolveStart(writer);
        return;
      }
      if ('error' in reply && reply.seq === -1) {
        rejectStart(failureOf(reply.error, path));
        return;
      }
      const done = inFlight.get(reply.seq);
      if (!done) return;
      inFlight.delete(reply.seq);
      // What arrived during that write goes now, as one batch, before the answers are handed out.
      if (queued.length > 0) send();
      if ('error' in reply) {
        const failure = failureOf(reply.error, path);
        for (const p of done) p.reject(failure);
      } else {
        done.forEach((p, i) => {
          const outcome = reply.outcomes[i]!;
          if ('error' in outcome) p.reject(failureOf(outcome.error, path));
          else p.resolve(outcome);
        });
      }
      if (inFlight.size === 0 && queued.length === 0) onIdle?.();
    });
    worker.on('error', (err) => {
      const failure = new StoreError('io', `cannot use ${path}: the inbox writer thread failed (${err.message})`, { cause: err });
      rejectStart(failure);
      failAll(failure);
    });
    worker.on('exit', () => failAll(new StoreError('io', `cannot use ${path}: the inbox writer thread has stopped`)));

    const writer: AcceptWriter = {
      accept: (event, dedupSince) =>
        new Promise<AcceptOutcome>((resolve, reject) => {
          if (dead) return reject(dead);
          queued.push({ event, dedupSince, resolve, reject });
          // The events of this turn of the event loop go together; a batch in flight takes the rest after it.
          if (!scheduled && inFlight.size < MAX_IN_FLIGHT) {
            scheduled = true;
            setImmediate(send);
          }
        }),
      stop: () => {
        stopping ??= (async () => {
          if (inFlight.size > 0 || queued.length > 0) {
            await new Promise<void>((resolve) => {
              onIdle = resolve;
              send();
            });
          }
          if (dead) return;
          const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
          worker.postMessage({ stop: true });
          const timer = setTimeout(() => void worker.terminate(), 5_000);
          await exited;
          clearTimeout(timer);
        })();
        return stopping;
      },
    };
  });
}
