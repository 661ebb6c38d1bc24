import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { resolveHomePaths } from '../config/home.js';
import { logWritten } from './log-written.js';
import { createLogger, logFilePath } from './logger.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => removeDir(dir));

type Stream = NodeJS.EventEmitter & { readonly _len: number };
function streamOf(log: Logger): Stream {
  const stream = (log as unknown as Record<symbol, Stream | undefined>)[pino.symbols.streamSym];
  if (!stream) throw new Error('the logger has no stream');
  return stream;
}

/** The gateway's logger (buffered writes), once its file is open. */
async function openLogger(): Promise<{ log: Logger; file: string }> {
  const paths = resolveHomePaths({ IRIS_HOME: join(dir, 'home') });
  const log = createLogger(paths, 'gateway', { sync: false });
  await new Promise((resolve) => streamOf(log).once('ready', resolve));
  return { log, file: logFilePath(paths, 'gateway') };
}

const messages = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('logWritten', () => {
  it('resolves once a line that waited behind a write in progress is in the file', async () => {
    const { log, file } = await openLogger();
    log.info('first'); // its write is under way
    log.info({ id: 7 }, 'webhook answer'); // waits behind it, in memory
    expect(streamOf(log)._len).toBeGreaterThan(0);
    // pino's flush calls back at once here, with the answer not yet written.
    const atFlush = await new Promise<string>((resolve) => log.flush(() => resolve(readFileSync(file, 'utf8'))));
    expect(atFlush).not.toContain('webhook answer');
    await logWritten(log);
    // Read synchronously: nothing else has run since logWritten resolved.
    expect(messages(file)).toEqual(['first', 'webhook answer']);
    await logWritten(log); // nothing pending: at once
  });

  it('does not wait for lines logged after it was called, however busy the log is', async () => {
    const { log, file } = await openLogger();
    let logging = true;
    let after = 0;
    const more = () => {
      if (!logging) return;
      log.info(`after ${++after}`);
      setImmediate(more);
    };
    log.info('busy');
    more();
    log.info('webhook answer');
    const started = Date.now();
    const done = logWritten(log).then(() => logging);
    setTimeout(() => (logging = false), 3_000);
    expect(await done).toBe(true); // still logging when it resolved
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(messages(file).slice(0, 3)).toEqual(['busy', 'after 1', 'webhook answer']);
    logging = false;
  });

  it('has one listener on the stream however many wait at once', async () => {
    const { log, file } = await openLogger();
    const waits = Array.from({ length: 30 }, (_, n) => {
      log.info(`answer ${n}`);
      return logWritten(log);
    });
    expect(streamOf(log).listenerCount('write')).toBe(1);
    await Promise.all(waits);
    expect(messages(file)).toEqual(Array.from({ length: 30 }, (_, n) => `answer ${n}`));
  });

  it('fails after its timeout when the bytes are never written', async () => {
    // A stream that took bytes and never writes them (a file system that stopped answering).
    const stuck = Object.assign(new EventEmitter(), { _len: 120, write: () => true });
    const log = pino({}, stuck);
    await expect(logWritten(log, 50)).rejects.toThrow('the log file did not take the line within 0.05 s');
  });

  it('is refused for a logger that does not write through its own file', async () => {
    await expect(logWritten(pino({}, { write: () => undefined }))).rejects.toThrow('the logger does not write through its own log file (pino.destination)');
  });
});
