import { describe, expect, it } from 'vitest';
import { escapePgParam, escapePgText, restorePgText } from './pg-text.js';

const cases: readonly { readonly name: string; readonly text: string; readonly stored: string }[] = [
  { name: 'plain text', text: 'hello', stored: 'hello' },
  { name: 'empty', text: '', stored: '' },
  { name: 'one U+0000', text: 'a\u0000b', stored: 'a\uFDD00b' },
  { name: 'only U+0000', text: '\u0000', stored: '\uFDD00' },
  { name: 'U+0000 then a digit', text: '\u00000', stored: '\uFDD000' },
  { name: 'a sent U+FDD0', text: 'x\uFDD0y', stored: 'x\uFDD0\uFDD0y' },
  { name: 'a sent U+FDD0 then 0', text: '\uFDD00', stored: '\uFDD0\uFDD00' },
  { name: 'both, repeated', text: '\u0000\uFDD0\u0000\u0000', stored: '\uFDD00\uFDD0\uFDD0\uFDD00\uFDD00' },
  { name: 'other control characters', text: '\u0001\u001f\u007f', stored: '\u0001\u001f\u007f' },
  { name: 'emoji and other planes', text: 'é😀\u{10FFFF}', stored: 'é😀\u{10FFFF}' },
];

describe('PostgreSQL text codec', () => {
  it.each(cases)('$name: escaped on write, restored on read', ({ text, stored }) => {
    expect(escapePgText(text)).toBe(stored);
    expect(stored).not.toContain('\u0000');
    expect(restorePgText(stored)).toBe(text);
  });

  it('reads text written before the codec as it was (a lone U+FDD0 not followed by an escape code)', () => {
    expect(restorePgText('old \uFDD0x value')).toBe('old \uFDD0x value');
    expect(restorePgText('ends with \uFDD0')).toBe('ends with \uFDD0');
  });

  it('keeps a prefix a prefix, so prefix queries still match', () => {
    const full = 'route\u0000name';
    expect(escapePgText(full).startsWith(escapePgText('route\u0000'))).toBe(true);
  });

  it('escapes strings inside parameter arrays and leaves other values alone', () => {
    const buffer = Buffer.from([0]);
    expect(escapePgParam(['a\u0000', null, 'b'])).toEqual(['a\uFDD00', null, 'b']);
    expect(escapePgParam(5)).toBe(5);
    expect(escapePgParam(null)).toBe(null);
    expect(escapePgParam(buffer)).toBe(buffer);
    expect(escapePgParam([[1, 'x\u0000']])).toEqual([[1, 'x\uFDD00']]);
  });
});
