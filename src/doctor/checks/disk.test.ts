import { describe, expect, it } from 'vitest';
import { checkDiskSpace } from './disk.js';

const MB = 1024 * 1024;

describe('checkDiskSpace', () => {
  it('is quiet about a disk it cannot read', () => {
    expect(checkDiskSpace('/h', undefined)).toBeUndefined();
  });

  it('says nothing when there is room', () => {
    expect(checkDiskSpace('/h', { freeBytes: 5_000 * MB, totalBytes: 10_000 * MB, low: false })).toBeUndefined();
  });

  it('warns when space is low, saying what a full disk does', () => {
    const result = checkDiskSpace('/h', { freeBytes: 20 * MB, totalBytes: 40 * MB, low: true });
    expect(result).toMatchObject({ status: 'warn', finding: 'low: 20 MB free of 40 MB (50%) under /h (under 5% or 500 MB)' });
    expect(result?.fix).toContain('webhooks get 503');
  });
});
