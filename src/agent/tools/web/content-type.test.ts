import { describe, expect, it } from 'vitest';
import { classifyContentType, decodeText, sniffHtmlCharset } from './content-type.js';

describe('classifyContentType', () => {
  it.each([
    ['text/html', { kind: 'html', charset: 'utf-8', declared: false }],
    ['text/html; charset=ISO-8859-1', { kind: 'html', charset: 'iso-8859-1', declared: true }],
    ['application/xhtml+xml;charset="utf-8"', { kind: 'html', charset: 'utf-8', declared: true }],
    [undefined, { kind: 'html', charset: 'utf-8', declared: false }],
    ['text/plain; charset=utf-8', { kind: 'text', charset: 'utf-8' }],
    ['TEXT/PLAIN', { kind: 'text', charset: 'utf-8' }],
    ['text/markdown', { kind: 'text', charset: 'utf-8' }],
    ['application/json', { kind: 'text', charset: 'utf-8' }],
    ['application/problem+json', { kind: 'text', charset: 'utf-8' }],
    ['application/pdf', { kind: 'other', mediaType: 'application/pdf' }],
    ['image/png', { kind: 'other', mediaType: 'image/png' }],
    ['application/octet-stream', { kind: 'other', mediaType: 'application/octet-stream' }],
    ['text/javascript', { kind: 'other', mediaType: 'text/javascript' }],
  ] as const)('%s → %j', (header, expected) => {
    expect(classifyContentType(header)).toEqual(expected);
  });
});

describe('decodeText', () => {
  it('decodes in the page charset, and falls back to UTF-8 for unknown labels', () => {
    expect(decodeText(Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
    expect(decodeText(new TextEncoder().encode('café'), 'no-such-charset')).toBe('café');
  });
});

describe('sniffHtmlCharset', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each([
    ['<html><head><meta charset="windows-1252"><title>x</title>', 'windows-1252'],
    ["<meta http-equiv='Content-Type' content='text/html; charset=ISO-8859-1'>", 'iso-8859-1'],
    ['<META CHARSET=Shift_JIS>', 'shift_jis'],
    ['<html><head><title>no charset</title></head>', undefined],
    [`${' '.repeat(1100)}<meta charset="koi8-r">`, undefined],
  ])('%s → %s', (html, expected) => {
    expect(sniffHtmlCharset(bytes(html))).toBe(expected);
  });
});
