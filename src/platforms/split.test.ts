import { describe, expect, it } from 'vitest';
import { splitMessage } from './split.js';

describe('splitMessage', () => {
  it('leaves a short message whole, trimmed', () => {
    expect(splitMessage('  hello  ', 10)).toEqual(['hello']);
    expect(splitMessage('', 10)).toEqual(['']);
  });

  it('splits at a paragraph break first', () => {
    expect(splitMessage('aaaa bbbb\n\ncccc', 12)).toEqual(['aaaa bbbb', 'cccc']);
  });

  it('then at a line break, then at a space', () => {
    expect(splitMessage('aaaa\nbbbb cccc', 10)).toEqual(['aaaa', 'bbbb cccc']);
    expect(splitMessage('aaaa bbbb cccc', 10)).toEqual(['aaaa bbbb', 'cccc']);
  });

  it('cuts hard at the limit when there is no break, never inside a surrogate pair', () => {
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    const emoji = '😀'; // two code units
    const parts = splitMessage(`abc${emoji}def`, 4);
    expect(parts).toEqual(['abc', `${emoji}de`, 'f']);
  });

  it('keeps every part within the limit and loses no words (5,000 characters at 4,096)', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    const text = `${words}\n\n${words}`.slice(0, 5000);
    const parts = splitMessage(text, 4096);
    expect(parts.length).toBe(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    expect(parts.join(' ').split(/\s+/)).toEqual(text.split(/\s+/));
  });

  it('refuses a useless limit', () => {
    expect(() => splitMessage('abc', 1)).toThrow(RangeError);
  });
});
