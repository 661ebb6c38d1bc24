import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';

describe('sleep', () => {
  it('waits about the time asked', async () => {
    const started = Date.now();
    await sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('ends early when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await pending;
    await sleep(60_000, controller.signal);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('leaves no listener on a long-lived signal after 1,000 pauses', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 1000; i++) await sleep(0, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
