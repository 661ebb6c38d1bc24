import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_DEPTH, parsePayload } from './parse-payload.js';
import { parseJson } from '../../test/helpers/documents.js';

const json = 'application/json';
const form = 'application/x-www-form-urlencoded';
const bytes = (text: string) => Buffer.from(text, 'utf8');
const formBody = (payload: string) => bytes(new URLSearchParams({ payload }).toString());
const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('parsePayload', () => {
  it('keeps the JSON text as received: without a BOM, and from the form field', () => {
    const text = '{ "action": "opened",  "n": 1 }';
    expect(parsePayload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(text)]), json)).toEqual({ ok: true, payload: { action: 'opened', n: 1 }, json: text });
    expect(parsePayload(formBody(text), form)).toEqual({ ok: true, payload: { action: 'opened', n: 1 }, json: text });
  });

  it('parses a JSON object', () => {
    expect(parsePayload(bytes('{"action":"opened","pull_request":{"number":7}}'), json)).toEqual({
      ok: true, json: '{"action":"opened","pull_request":{"number":7}}',
      payload: { action: 'opened', pull_request: { number: 7 } },
    });
    expect(parsePayload(bytes('{}'), json)).toEqual({ ok: true, json: '{}', payload: {} });
  });

  it.each([undefined, '', 'text/plain', 'application/json; charset=utf-8', 'application/vnd.custom+json', 'multipart/form-data'])(
    'parses the body as JSON for content type %j',
    (contentType) => {
      expect(parsePayload(bytes('{"a":1}'), contentType)).toEqual({ ok: true, json: '{"a":1}', payload: { a: 1 } });
    },
  );

  it('strips a UTF-8 byte order mark', () => {
    expect(parsePayload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes('{"a":"é"}')]), json)).toEqual({
      ok: true, json: '{"a":"é"}',
      payload: { a: 'é' },
    });
  });

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a truncated sequence', [0x7b, 0x22, 0xc3, 0x22, 0x7d]],
    ['Latin-1 é', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('rejects %s as not UTF-8', (_name, raw) => {
    expect(parsePayload(Buffer.from(raw), json)).toEqual({ ok: false, error: 'Body is not valid UTF-8' });
  });

  it('checks UTF-8 before the form field is read', () => {
    expect(parsePayload(Buffer.from([0x70, 0xff]), form)).toEqual({ ok: false, error: 'Body is not valid UTF-8' });
  });

  it.each(['', '   ', '{', '{"a":1,}', "{'a':1}", 'undefined', '{"a":1} x'])('rejects %j as malformed JSON', (text) => {
    expect(parsePayload(bytes(text), json)).toEqual({ ok: false, error: 'Malformed JSON' });
  });

  it.each(['[]', '[{"a":1}]', '"text"', '42', 'true', 'null'])('rejects %s: not an object', (text) => {
    expect(parsePayload(bytes(text), json)).toEqual({ ok: false, error: 'Payload must be a JSON object' });
  });

  it("reads GitHub's form encoding from its payload field", () => {
    expect(parsePayload(formBody('{"action":"opened","title":"a+b & c"}'), form)).toEqual({
      ok: true, json: '{"action":"opened","title":"a+b & c"}',
      payload: { action: 'opened', title: 'a+b & c' },
    });
  });

  it.each(['application/x-www-form-urlencoded; charset=utf-8', 'Application/X-WWW-Form-Urlencoded', ' application/x-www-form-urlencoded ;x=y'])(
    'matches the form content type %j case-insensitively, ignoring parameters',
    (contentType) => {
      expect(parsePayload(formBody('{"a":1}'), contentType)).toEqual({ ok: true, json: '{"a":1}', payload: { a: 1 } });
    },
  );

  it('decodes + as a space and percent escapes as UTF-8 in the form field', () => {
    expect(parsePayload(bytes('payload=%7B%22t%22%3A%22a+b%20%C3%A9%22%7D'), form)).toEqual({ ok: true, json: '{"t":"a b é"}', payload: { t: 'a b é' } });
  });

  it('requires the payload field in a form body', () => {
    expect(parsePayload(bytes('other=1'), form)).toEqual({ ok: false, error: 'Missing payload field' });
    expect(parsePayload(bytes(''), form)).toEqual({ ok: false, error: 'Missing payload field' });
    expect(parsePayload(bytes('{"a":1}'), form)).toEqual({ ok: false, error: 'Missing payload field' });
  });

  it('holds the form field to the same JSON rules', () => {
    expect(parsePayload(bytes('payload='), form)).toEqual({ ok: false, error: 'Malformed JSON' });
    expect(parsePayload(formBody('{nope'), form)).toEqual({ ok: false, error: 'Malformed JSON' });
    expect(parsePayload(formBody('[1]'), form)).toEqual({ ok: false, error: 'Payload must be a JSON object' });
  });

  it('takes the first payload field when there are several', () => {
    expect(parsePayload(bytes('payload=%7B%22n%22%3A1%7D&payload=%7B%22n%22%3A2%7D'), form)).toEqual({ ok: true, json: '{"n":1}', payload: { n: 1 } });
  });

  it(`accepts nesting up to ${MAX_PAYLOAD_DEPTH} levels and refuses deeper`, () => {
    expect(parsePayload(bytes(nested(MAX_PAYLOAD_DEPTH)), json).ok).toBe(true);
    expect(parsePayload(bytes(nested(MAX_PAYLOAD_DEPTH + 1)), json)).toEqual({ ok: false, error: 'Payload is nested too deeply' });
    const deepArray = `{"a":${'['.repeat(MAX_PAYLOAD_DEPTH)}${']'.repeat(MAX_PAYLOAD_DEPTH)}}`;
    expect(parsePayload(bytes(deepArray), json)).toEqual({ ok: false, error: 'Payload is nested too deeply' });
  });

  it('refuses a body nested far beyond what JSON.stringify could print, without throwing', () => {
    expect(parsePayload(bytes(nested(200_000)), json)).toEqual({ ok: false, error: 'Payload is nested too deeply' });
  });

  it('counts only real nesting: brackets and escaped quotes inside strings are text', () => {
    const brackets = '[{'.repeat(300);
    const text = JSON.stringify({ body: brackets, quote: 'say \\"[[[[\\" and \\\\', list: Array.from({ length: 200 }, () => ({ k: '}]' })) });
    expect(parsePayload(bytes(text), json)).toMatchObject({ ok: true, json: text });
  });

  it('refuses 100,000 nested arrays from the text, before JSON.parse builds them', () => {
    const hostile = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const before = process.memoryUsage().heapUsed;
    expect(parsePayload(bytes(hostile), json)).toEqual({ ok: false, error: 'Payload is nested too deeply' });
    // Parsing would have built 100,000 arrays (several MB); the scan builds nothing.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(1_000_000);
  });

  it('keeps a __proto__ key as plain data', () => {
    const result = parsePayload(bytes('{"__proto__":{"polluted":true}}'), json);
    expect(result).toEqual({ ok: true, json: '{"__proto__":{"polluted":true}}', payload: parseJson('{"__proto__":{"polluted":true}}') });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
