// The hostile run's own rules (the run itself is `npm run test:hostile`): how raw answers are read,
// and which outcomes fail it. A harness that read a 5xx as fine would pass a broken gateway.
import { describe, expect, it } from 'vitest';
import type { HostileClass } from './class-types.js';
import { parseAnswers } from './raw-exchange.js';
import { failureOf, tally } from './summary.js';

const answer = (status: number, body: string, extra = '') => `HTTP/1.1 ${status} X\r\ncontent-length: ${Buffer.byteLength(body)}${extra}\r\n\r\n${body}`;

describe('parseAnswers', () => {
  it('reads pipelined answers, skips interim 1xx ones, and says whether the last is complete', () => {
    const data = Buffer.from(`HTTP/1.1 100 Continue\r\n\r\n${answer(200, '{}')}${answer(202, '{"delivery_id":"d1"}')}`);
    expect(parseAnswers(data)).toEqual({ answers: [{ status: 200, body: '{}' }, { status: 202, body: '{"delivery_id":"d1"}' }], complete: true });
    expect(parseAnswers(data.subarray(0, data.length - 3)).complete).toBe(false);
    expect(parseAnswers(data.subarray(0, data.length - 3)).answers.map((a) => a.status)).toEqual([200, 202]);
  });

  it("reads Node's own answers without a length (400, 431) and nothing as no answer", () => {
    expect(parseAnswers(Buffer.from('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')).answers).toEqual([{ status: 400, body: '' }]);
    expect(parseAnswers(Buffer.alloc(0))).toEqual({ answers: [], complete: true });
  });
});

describe('failures', () => {
  const cls: HostileClass = { name: 'c', count: 3, allowed: ['400', 'no answer'], plan: () => ({ steps: [] }) };

  it('any 5xx, a timeout, or an outcome the class does not allow', () => {
    expect(failureOf(cls, '400')).toBeUndefined();
    expect(failureOf(cls, 'no answer')).toBeUndefined();
    expect(failureOf({ ...cls, allowed: ['500'] }, '500')).toBe('c: a 500 answer');
    expect(failureOf(cls, 'timeout')).toBe('c: timeout (allowed: 400, no answer)');
    expect(failureOf(cls, '202')).toBe('c: 202 (allowed: 400, no answer)');
  });

  it('tally counts per class and in all, and groups the failures', () => {
    const results = [{ labels: ['400'] }, { labels: ['503', '503'] }, { labels: ['no answer'] }].map((outcome) => ({ cls, outcome: { ...outcome, acceptedIds: [] } }));
    const t = tally([cls], results);
    expect(t.requests).toBe(3);
    expect(Object.fromEntries(t.histogram)).toEqual({ '400': 1, '503': 2, 'no answer': 1 });
    expect(t.failures).toEqual(['c: a 503 answer × 2']);
  });
});
