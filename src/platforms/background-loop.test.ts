import { describe, expect, it } from 'vitest';
import { createBackgroundLoop } from './background-loop.js';
import type { ConnectionState } from './types.js';

function setup() {
  const states: ConnectionState[] = [];
  const errors: Array<[object, string]> = [];
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (fields: object, message: string) => void errors.push([fields, message]) };
  const loop = createBackgroundLoop({ platform: 'telegram', log, setState: (s) => void states.push(s), crashDetail: 'polling stopped after an internal error', crashMessage: 'Telegram poller crashed' });
  return { states, errors, loop };
}

describe('createBackgroundLoop', () => {
  it('runs one loop at a time; stop aborts it, waits for it to end and says stopped', async () => {
    const { states, loop } = setup();
    expect(loop.running()).toBe(false);
    const signal = loop.begin();
    expect(loop.running()).toBe(true);
    let ended = false;
    loop.run(new Promise<void>((resolve) => signal.addEventListener('abort', () => setTimeout(() => ((ended = true), resolve()), 20))));
    await loop.stop();
    expect([signal.aborted, ended, loop.running()]).toEqual([true, true, false]);
    expect(states).toEqual([{ connected: false, detail: 'stopped' }]);
  });

  it('a loop that crashes is logged and shown in the state, never silent', async () => {
    const { states, errors, loop } = setup();
    loop.begin();
    loop.run(Promise.reject(new Error('boom')));
    await loop.stop();
    expect(errors).toEqual([[{ platform: 'telegram', err: 'boom' }, 'Telegram poller crashed']]);
    expect(states).toEqual([{ connected: false, detail: 'polling stopped after an internal error' }, { connected: false, detail: 'stopped' }]);
  });
});
