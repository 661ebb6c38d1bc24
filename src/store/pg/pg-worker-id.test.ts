import { describe, expect, it } from 'vitest';
import { formatWorkerId, heldByDeadLocalProcess, parseWorkerId } from './pg-worker-id.js';

describe('worker ids', () => {
  const self = { host: 'web-1', pid: 400, startedAt: 1_700_000_000_000 };

  it('round-trip, host names with colons included', () => {
    expect(parseWorkerId(formatWorkerId(self))).toEqual(self);
    expect(parseWorkerId('fe80::1:12:34')).toEqual({ host: 'fe80::1', pid: 12, startedAt: 34 });
    expect(parseWorkerId('not a worker')).toBeUndefined();
  });

  it('a row is taken back early only from a dead process on this host, or an earlier process with this pid', () => {
    const alive = (pid: number) => pid === 401;
    expect(heldByDeadLocalProcess('web-1:402:5', self, alive)).toBe(true);
    expect(heldByDeadLocalProcess('web-1:401:5', self, alive)).toBe(false);
    expect(heldByDeadLocalProcess('web-2:402:5', self, alive)).toBe(false);
    expect(heldByDeadLocalProcess(`web-1:400:${self.startedAt}`, self, alive)).toBe(false);
    expect(heldByDeadLocalProcess('web-1:400:5', self, alive)).toBe(true);
    expect(heldByDeadLocalProcess('garbage', self, alive)).toBe(false);
  });
});
