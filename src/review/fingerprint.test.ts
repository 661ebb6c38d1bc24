import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findingFingerprint, findingMarker, findingMarkerIn } from './fingerprint.js';

describe('findingFingerprint', () => {
  it('is sha256 of path, the lowercased title and the collapsed line text, one per line', () => {
    const expected = createHash('sha256').update('src/a.ts\nunchecked error\nconst x = read();').digest('hex');
    expect(findingFingerprint('src/a.ts', 'Unchecked Error', '   const  x =\tread();  ')).toBe(expected);
  });

  it('differs by path, title and code, not by indentation', () => {
    const base = findingFingerprint('a.ts', 'T', 'x = 1');
    expect(findingFingerprint('b.ts', 'T', 'x = 1')).not.toBe(base);
    expect(findingFingerprint('a.ts', 'U', 'x = 1')).not.toBe(base);
    expect(findingFingerprint('a.ts', 'T', 'x = 2')).not.toBe(base);
    expect(findingFingerprint('a.ts', 't', '    x   = 1')).toBe(base);
  });
});

describe('findingMarker', () => {
  it('carries the first 12 hex digits, and is read back', () => {
    const fingerprint = 'abcdef0123456789'.repeat(4);
    expect(findingMarker(fingerprint)).toBe('<!-- iris-finding:abcdef012345 -->');
    expect(findingMarkerIn(`text\n\n${findingMarker(fingerprint)}`)).toBe('abcdef012345');
    expect(findingMarkerIn('no marker')).toBeUndefined();
  });
});
