import { describe, expect, it } from 'vitest';
import { describeDiskSpace, diskSpaceOf } from './disk-space.js';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('diskSpaceOf', () => {
  it.each([
    { name: 'plenty', free: 50 * GB, total: 100 * GB, low: false },
    { name: 'under 500 MB free on a big disk', free: 499 * MB, total: 100 * GB, low: true },
    { name: 'exactly 500 MB, 50%', free: 500 * MB, total: 1000 * MB, low: false },
    { name: 'under 5% of a huge disk, yet many GB', free: 40 * GB, total: 1000 * GB, low: true },
    { name: 'exactly 5%', free: 50 * GB, total: 1000 * GB, low: false },
    { name: 'a small tmpfs, nearly empty', free: 39 * MB, total: 40 * MB, low: true },
    { name: 'full', free: 0, total: 40 * MB, low: true },
  ])('$name → low: $low', ({ free, total, low }) => {
    const space = diskSpaceOf({ bavail: free / 4096, blocks: total / 4096, bsize: 4096 });
    expect(space).toEqual({ freeBytes: free, totalBytes: total, low });
  });

  it('describes the space for a message', () => {
    expect(describeDiskSpace({ freeBytes: 300 * MB, totalBytes: 20 * GB, low: true })).toBe('300 MB free of 20.0 GB (1%)');
  });
});
