import { describe, expect, it } from 'vitest';
import { createOutputCap } from './output-cap.js';

function capped(limit: number, ...chunks: string[]): string {
  const cap = createOutputCap(limit);
  for (const chunk of chunks) cap.push(Buffer.from(chunk));
  return cap.text();
}

describe('createOutputCap', () => {
  it('keeps output up to the limit whole, across chunks', () => {
    expect(capped(10, 'abc', 'defg', 'hij')).toBe('abcdefghij');
    expect(capped(10)).toBe('');
  });

  it('keeps the head and the tail of longer output and counts the bytes cut', () => {
    expect(capped(10, '0123456789', 'ABCDEFGHIJ')).toBe('01234\n[… 10 bytes cut …]\nFGHIJ');
    expect(capped(10, 'ab', 'cdefghijklm', 'no', 'pqrst', 'u')).toBe('abcde\n[… 11 bytes cut …]\nqrstu');
  });

  it('keeps the tail bounded while streaming many chunks', () => {
    const cap = createOutputCap(8);
    for (let i = 0; i < 10_000; i++) cap.push(Buffer.from(`${i % 10}`));
    expect(cap.totalBytes).toBe(10_000);
    expect(cap.text()).toBe('0123\n[… 9992 bytes cut …]\n6789');
  });

  it('never splits a multi-byte character at a cut', () => {
    // "é" is 2 bytes, "€" 3: the head cut falls inside "é", the tail cut inside "€".
    expect(capped(8, 'abcé', 'x'.repeat(10), '€yz')).toBe('abc\n[… 15 bytes cut …]\nyz');
  });
});
