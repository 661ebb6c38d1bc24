// Fetch failures as one readable line: the cause's code when there is one, else its message.
import { describe, expect, it } from 'vitest';
import { networkMessage } from './sse-request.js';

describe('networkMessage', () => {
  it('names the cause code, or the cause message, after "fetch failed"', () => {
    expect(networkMessage(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) }))).toBe(
      'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:1)',
    );
    expect(networkMessage(Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') }))).toBe('fetch failed: bad port');
    expect(networkMessage(new TypeError('fetch failed'))).toBe('fetch failed');
  });
});
