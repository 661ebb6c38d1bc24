// Who may take over a claimed webhook run or delivery: every case of the decision.
import { describe, expect, it } from 'vitest';
import { isProcessAlive, mayTakeOver } from './pg-takeover.js';

const SELF = 'web-1:300:5000';
const NOW = 1_000_000;
const alive = (pids: readonly number[]) => (pid: number) => pids.includes(pid);

describe('mayTakeOver', () => {
  it.each([
    ['nobody holds it', { worker: null, leaseUntil: null }, true],
    ['it was never leased', { worker: 'web-2:9:1', leaseUntil: null }, true],
    ['its lease lapsed', { worker: 'web-2:9:1', leaseUntil: NOW - 1 }, true],
    ['its lease ends right now (still held)', { worker: 'web-2:9:1', leaseUntil: NOW }, false],
    ['another host holds it under a running lease', { worker: 'web-2:9:1', leaseUntil: NOW + 1 }, false],
    ['this worker holds it', { worker: SELF, leaseUntil: NOW + 1 }, true],
    ['a live process on this host holds it', { worker: 'web-1:42:1', leaseUntil: NOW + 1 }, false],
    ['a dead process on this host held it', { worker: 'web-1:43:1', leaseUntil: NOW + 1 }, true],
    ['an earlier process with this pid held it', { worker: 'web-1:300:4000', leaseUntil: NOW + 1 }, true],
    ['a holder that is not a worker id, leased', { worker: 'something else', leaseUntil: NOW + 1 }, false],
  ] as const)('%s → %s', (_case, hold, expected) => {
    expect(mayTakeOver(hold, NOW, SELF, alive([42]))).toBe(expected);
  });

  it('without a worker id of its own, trusts only the lease', () => {
    expect(mayTakeOver({ worker: 'web-1:43:1', leaseUntil: NOW + 1 }, NOW, 'not-an-id', alive([]))).toBe(false);
  });
});

describe('isProcessAlive', () => {
  it('knows this process and not a pid above any pid_max', () => {
    expect([isProcessAlive(process.pid), isProcessAlive(99_999_999)]).toEqual([true, false]);
  });
});
