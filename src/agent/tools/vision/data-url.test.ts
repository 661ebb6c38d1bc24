import { describe, expect, it } from 'vitest';
import { isDataUrl, parseDataUrl } from './data-url.js';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('parseDataUrl', () => {
  it('decodes a base64 data: URL and keeps the declared type', () => {
    const result = parseDataUrl(`data:image/png;base64,${PNG_HEAD.toString('base64')}`, 100);
    expect(result).toEqual({ ok: true, value: { declaredType: 'image/png', bytes: PNG_HEAD } });
  });

  it('accepts parameters, upper case and line breaks in the base64', () => {
    const b64 = PNG_HEAD.toString('base64');
    const result = parseDataUrl(`DATA:Image/PNG;name=x.png;BASE64,${b64.slice(0, 4)}\n${b64.slice(4)}`, 100);
    expect(result).toEqual({ ok: true, value: { declaredType: 'image/png', bytes: PNG_HEAD } });
  });

  it('decodes %-escapes byte by byte (image bytes are not UTF-8)', () => {
    expect(parseDataUrl('data:image/png,%89PNG%0D%0A%1A%0A', 100)).toEqual({ ok: true, value: { declaredType: 'image/png', bytes: PNG_HEAD } });
  });

  it('defaults the type to text/plain, as RFC 2397 says', () => {
    expect(parseDataUrl('data:,hello', 100)).toEqual({ ok: true, value: { declaredType: 'text/plain', bytes: Buffer.from('hello') } });
  });

  it.each([
    ['no comma', 'data:image/png;base64', 'the data: URL has no "," before its data'],
    ['bad base64', 'data:image/png;base64,@@@@', 'the data: URL is not valid base64'],
    ['a bad %-escape', 'data:image/png,%zz', 'the data: URL has a bad %-escape'],
    ['not a data: URL', 'https://example.com/a.png', 'not a data: URL'],
  ])('refuses %s', (_name, text, error) => {
    expect(parseDataUrl(text, 100)).toEqual({ ok: false, error });
  });

  it('refuses more bytes than the cap, before and after decoding', () => {
    const big = Buffer.alloc(101).toString('base64');
    expect(parseDataUrl(`data:image/png;base64,${big}`, 100)).toEqual({ ok: false, error: 'the data: URL holds more than 100 bytes' });
    expect(parseDataUrl(`data:image/png,${'a'.repeat(101)}`, 100)).toEqual({ ok: false, error: 'the data: URL holds more than 100 bytes' });
    expect(parseDataUrl(`data:image/png;base64,${Buffer.alloc(100).toString('base64')}`, 100)).toMatchObject({ ok: true });
  });

  it('isDataUrl looks at the scheme only', () => {
    expect([isDataUrl('data:x'), isDataUrl(' Data:x'), isDataUrl('./data:x'), isDataUrl('http://x/data:')]).toEqual([true, true, false, false]);
  });
});
