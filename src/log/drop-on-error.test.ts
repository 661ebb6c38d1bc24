// A log file on a full disk (/dev/full answers every write with ENOSPC): the lines are dropped and
// counted, the process lives, nothing is queued to be retried forever, and a delivery waiting for
// its line hears at once that it is gone. Pins what drop-on-error.ts reads of sonic-boom.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { dropOnError, logLinesDropped } from './drop-on-error.js';
import { logWritten } from './log-written.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([{ sync: false }, { sync: true }])('a log file whose writes fail (sync: $sync)', ({ sync }) => {
  it('drops and counts the lines, keeps nothing queued, and keeps logging', async () => {
    const destination = pino.destination({ dest: '/dev/full', sync });
    await new Promise((resolve) => destination.once('ready', resolve));
    const heard: string[] = [];
    dropOnError(destination, (_lines, err) => heard.push((err as NodeJS.ErrnoException).code ?? ''));
    const log = pino({}, destination);
    const before = logLinesDropped();
    for (let i = 0; i < 5; i++) {
      log.info(`line ${i}`);
      await pause(5);
    }
    await pause(50);
    expect(logLinesDropped() - before).toBe(5);
    expect(heard.every((code) => code === 'ENOSPC')).toBe(true);
    expect((destination as unknown as { _len: number })._len).toBe(0);
  });
});

describe('a delivery waiting for its log line on a full disk', () => {
  it('fails at once (and is tried again later), not at the timeout and not with success', async () => {
    const destination = pino.destination({ dest: '/dev/full', sync: false });
    await new Promise((resolve) => destination.once('ready', resolve));
    dropOnError(destination);
    const log = pino({}, destination);
    log.info('first');
    log.info({ id: 1 }, 'webhook answer');
    const started = Date.now();
    await expect(logWritten(log, 10_000)).rejects.toThrow('the line was dropped');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
