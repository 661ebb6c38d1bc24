// Which claimed rows recovery may take back: every case of the two decisions, without a database.
import { describe, expect, it } from 'vitest';
import { leaseLapsed, mayRecoverInbound, mayRecoverOutbox, type Reclaimer } from './pg-reclaim.js';

const SELF = { host: 'here', pid: 100, startedAt: 5 };
const by: Reclaimer = { worker: 'here:100:5', self: SELF, now: 1_000, isAlive: (pid) => pid === 100 || pid === 200 };
const live = 2_000;

describe('leaseLapsed', () => {
  it.each([
    [null, true],
    [999, true],
    [1_000, false],
    [1_001, false],
  ] as const)('lease until %j at 1000: %j', (leaseUntil, lapsed) => {
    expect(leaseLapsed({ worker: 'w', leaseUntil }, 1_000)).toBe(lapsed);
  });
});

describe('mayRecoverInbound', () => {
  it.each([
    ['a lapsed lease on another host', 'there:1:1', 999, true],
    ['a live lease on another host', 'there:1:1', live, false],
    ['a live local process', 'here:200:1', live, false],
    ['a dead local process', 'here:300:1', live, true],
    ['an earlier process with this pid', 'here:100:4', live, true],
    ['this process itself', 'here:100:5', live, true],
    ['no worker (copied from SQLite)', null, live, true],
  ] as const)('%s: %j', (_case, worker, leaseUntil, expected) => {
    expect(mayRecoverInbound({ worker, leaseUntil }, by)).toBe(expected);
  });
});

describe('mayRecoverOutbox', () => {
  it.each([
    ['a lapsed lease on another host', 'there:1:1', 999, 1, true],
    ['a live lease on another host, its pid unknown here', 'there:300:1', live, 300, false],
    ['a live local process', 'here:200:1', live, 200, false],
    ['a dead local process', 'here:300:1', live, 300, true],
    ['this process, for a live claimer', 'here:100:5', live, 100, false],
    ['this process, for a dead claimer', 'here:100:5', live, 300, true],
    ['this process, no claimer', 'here:100:5', live, null, true],
    ['no worker (copied from SQLite)', null, live, 100, true],
  ] as const)('%s: %j', (_case, worker, leaseUntil, claimedBy, expected) => {
    expect(mayRecoverOutbox({ worker, leaseUntil, claimedBy }, by)).toBe(expected);
  });
});
