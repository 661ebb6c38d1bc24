// WAL checkpoints for a busy writer, off its event loop: a worker thread with its own connection
// runs a PASSIVE checkpoint on a timer (it never blocks the writer; what it cannot copy now it
// copies next time). The writers' connections have automatic checkpoints turned off, so no request
// ever waits for one. Used by the gateway, whose inbox takes a write per accepted event.
//
// Bounding the WAL is the accept writer's job (accept-writer.ts): under steady load a passive pass
// never reaches the end of a WAL that is appended to all the time, so only the thread that appends
// can finish a checkpoint, between its own commits.
import { Worker } from 'node:worker_threads';

export type CheckpointOptions = {
  readonly everyMs: number;
  /** Bytes the WAL file is cut back to once it starts over. */
  readonly journalSizeLimit: number;
};

// CommonJS on purpose: an eval'd worker has require(), and the driver is a CommonJS native addon.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 1000 });
db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next tick tries again; the WAL stays valid meanwhile.
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export type CheckpointWorker = { stop(): Promise<void> };

export function startCheckpointWorker(driverPath: string, path: string, options: CheckpointOptions): CheckpointWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: driverPath, path, ...options } });
  worker.unref();
  // A worker that fails (the file vanished) only means checkpoints wait for the next open.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
