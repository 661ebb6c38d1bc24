// WAL checkpoints for a busy writer, off its event loop: a worker thread with its own connection
// runs a PASSIVE checkpoint on a timer (it never blocks the writer; what it cannot copy now it
// copies next time). The writer's connection has automatic checkpoints turned off, so no request
// ever waits for one. Used by the gateway, whose inbox takes a write per accepted event.
import { Worker } from 'node:worker_threads';

// CommonJS on purpose: an eval'd worker has require(), and the driver is a CommonJS native addon.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 1000 });
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

export function startCheckpointWorker(driverPath: string, path: string, everyMs: number): CheckpointWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: driverPath, path, everyMs } });
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
