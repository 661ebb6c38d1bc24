import { describe, expect, it } from 'vitest';
import { fallbackWrite, slotTestBody } from './fallback-api.js';
import { attemptLines, latencyText, testHeadline } from './slot-test-view.js';

const failed = { provider: 'openai', model: 'main-m', reason: 'main', outcome: 'failed' as const, detail: 'server: 503' };
const skipped = { provider: 'openrouter', model: 'x', reason: 'discovery', outcome: 'skipped' as const, detail: 'no credential (set OPENROUTER_API_KEY)' };
const served = { provider: 'anthropic', model: 'claude-b', reason: 'fallback_providers', outcome: 'served' as const };

describe('the Test button text', () => {
  it('names who answered, the latency and the fallback taken', () => {
    const result = { ok: true as const, task: 'main', provider: 'anthropic', model: 'claude-b', latency_ms: 42, fell_back: true, attempts: [failed, skipped, served], reply: 'ok' };
    expect(testHeadline(result)).toBe('Answered by anthropic · claude-b in 42 ms, after a fallback.');
    expect(attemptLines(result.attempts)).toEqual(['openai · main-m failed: server: 503', 'openrouter · x skipped: no credential (set OPENROUTER_API_KEY)']);
    expect(testHeadline({ ...result, fell_back: false, latency_ms: 1530 })).toBe('Answered by anthropic · claude-b in 1.5 s.');
  });

  it('says no route answered', () => {
    expect(testHeadline({ ok: false, task: 'vision', error: 'x', latency_ms: 900, attempts: [failed] })).toBe('No route answered (900 ms).');
    expect(latencyText(999.6)).toBe('1.0 s');
    expect(latencyText(999.4)).toBe('999 ms');
  });
});

describe('request building', () => {
  it('names the slot, and writes a task chain or the global list', () => {
    expect(slotTestBody('main')).toEqual({ task: 'main' });
    expect(fallbackWrite('vision', [served])).toEqual({ path: '/api/model/fallbacks/vision', body: { chain: [served] } });
    expect(fallbackWrite(null, [])).toEqual({ path: '/api/model/fallbacks', body: { fallback_providers: [] } });
    expect(fallbackWrite('a/b', [])).toEqual({ path: '/api/model/fallbacks/a%2Fb', body: { chain: [] } });
  });
});
