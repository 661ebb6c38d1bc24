import { describe, expect, it } from 'vitest';
import { newSessionId, SESSION_ID_PATTERN } from './ids.js';

describe('newSessionId', () => {
  it('maps the low 5 bits of each random byte onto the lower-case Crockford alphabet', () => {
    const bytes = Uint8Array.from([0, 1, 9, 10, 17, 18, 21, 22, 26, 27, 31, 32 + 31]);
    expect(newSessionId((size) => bytes.subarray(0, size))).toBe('s_019ahjnptvzz');
  });

  it('is s_ and 12 characters with no i, l, o or u, and does not repeat', () => {
    const ids = Array.from({ length: 1000 }, () => newSessionId());
    for (const id of ids) expect(id).toMatch(SESSION_ID_PATTERN);
    expect(new Set(ids).size).toBe(1000);
    expect(ids.join('')).not.toMatch(/[ilou]/);
  });
});
