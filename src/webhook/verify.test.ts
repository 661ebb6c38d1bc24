import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INSECURE_NO_AUTH } from '../config/secrets-policy.js';
import { signBody, verifyRequest } from './verify.js';
import { safeEqual } from '../runtime/safe-equal.js';

const secret = 's3cret';
const body = Buffer.from('{"action":"opened","number":7}');
const hmacHex = createHmac('sha256', secret).update(body).digest('hex');

describe('safeEqual', () => {
  it('is true for equal strings and buffers, in any mix', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
    expect(safeEqual('abc', Buffer.from('abc'))).toBe(true);
    expect(safeEqual('', '')).toBe(true);
  });

  it('is false for different values, and does not throw on different lengths', () => {
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', 'a')).toBe(false);
    expect(safeEqual(Buffer.alloc(1), Buffer.alloc(1000))).toBe(false);
    expect(safeEqual('ABC', 'abc')).toBe(false);
  });
});

describe('signBody', () => {
  it("matches GitHub's documented example", () => {
    expect(signBody('Hello, World!', "It's a Secret to Everybody")).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('signs the raw bytes, the same for a string and its UTF-8 buffer', () => {
    expect(signBody(body, secret)).toBe(`sha256=${hmacHex}`);
    expect(signBody('héllo', 'k')).toBe(signBody(Buffer.from('héllo', 'utf8'), 'k'));
  });
});

describe('verifyRequest', () => {
  it('accepts a correct HMAC signature, in lowercase or uppercase hex', () => {
    expect(verifyRequest({ 'x-hub-signature-256': `sha256=${hmacHex}` }, body, secret)).toEqual({ ok: true, scheme: 'hmac' });
    expect(verifyRequest({ 'x-hub-signature-256': `sha256=${hmacHex.toUpperCase()}` }, body, secret)).toEqual({
      ok: true,
      scheme: 'hmac',
    });
  });

  it("accepts GitHub's documented example as a request", () => {
    const headers = { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' };
    expect(verifyRequest(headers, Buffer.from('Hello, World!'), "It's a Secret to Everybody")).toEqual({ ok: true, scheme: 'hmac' });
  });

  it('rejects a signature over other bytes or with another secret', () => {
    expect(verifyRequest({ 'x-hub-signature-256': signBody(body, 'other') }, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest({ 'x-hub-signature-256': signBody(`${body.toString()} `, secret) }, body, secret)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it.each([
    ['no prefix', hmacHex],
    ['sha1 prefix', `sha1=${hmacHex}`],
    ['uppercase prefix', `SHA256=${hmacHex}`],
    ['short hex', `sha256=${hmacHex.slice(0, 62)}`],
    ['long hex', `sha256=${hmacHex}00`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['prefix only', 'sha256='],
  ])('rejects a malformed signature (%s)', (_name, value) => {
    expect(verifyRequest({ 'x-hub-signature-256': value }, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('lets the signature alone decide when it is present, even beside a correct token', () => {
    const headers = { 'x-hub-signature-256': signBody(body, 'wrong'), 'x-gitlab-token': secret };
    expect(verifyRequest(headers, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accepts a correct token in either token header', () => {
    expect(verifyRequest({ 'x-alt-forge-token': secret }, body, secret)).toEqual({ ok: true, scheme: 'token' });
    expect(verifyRequest({ 'x-gitlab-token': secret }, body, secret)).toEqual({ ok: true, scheme: 'token' });
  });

  it('lets X-Alt-Forge-Token alone decide over X-Gitlab-Token', () => {
    expect(verifyRequest({ 'x-alt-forge-token': 'wrong', 'x-gitlab-token': secret }, body, secret)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rejects a wrong token, including prefixes and other case', () => {
    expect(verifyRequest({ 'x-gitlab-token': 'wrong' }, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest({ 'x-gitlab-token': 's3cre' }, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest({ 'x-gitlab-token': 'S3CRET' }, body, secret)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('compares a token against the secret without its surrounding spaces', () => {
    expect(verifyRequest({ 'x-gitlab-token': secret }, body, ` ${secret} `)).toEqual({ ok: true, scheme: 'token' });
    expect(verifyRequest({ 'x-gitlab-token': 'x' }, body, '   ')).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('reports missing when neither header is present (empty values count as absent)', () => {
    expect(verifyRequest({}, body, secret)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyRequest({ 'x-hub-signature-256': '', 'x-gitlab-token': '' }, body, secret)).toEqual({ ok: false, reason: 'missing' });
  });

  it('never verifies with an empty secret', () => {
    expect(verifyRequest({ 'x-hub-signature-256': signBody(body, '') }, body, '')).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest({ 'x-gitlab-token': '' }, body, '')).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest({}, body, '')).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('skips verification for the INSECURE_NO_AUTH secret, whatever the headers say', () => {
    expect(INSECURE_NO_AUTH).toBe('INSECURE_NO_AUTH');
    expect(verifyRequest({}, body, INSECURE_NO_AUTH)).toEqual({ ok: true, scheme: 'insecure' });
    expect(verifyRequest({ 'x-hub-signature-256': 'garbage' }, body, INSECURE_NO_AUTH)).toEqual({ ok: true, scheme: 'insecure' });
  });

  it('treats a secret that merely resembles INSECURE_NO_AUTH as a secret', () => {
    expect(verifyRequest({}, body, 'insecure_no_auth')).toEqual({ ok: false, reason: 'missing' });
    // Exact match only: the gateway's loopback-only check compares exactly too.
    expect(verifyRequest({}, body, 'INSECURE_NO_AUTH ')).toEqual({ ok: false, reason: 'missing' });
  });
});
