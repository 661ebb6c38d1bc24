// What the Test button shows, pure: who answered and how fast, then every route that was tried
// before it (the fallback taken), or why none answered.
import type { SlotTestResult, TestAttempt } from './fallback-api.js';

export function latencyText(ms: number): string {
  const rounded = Math.round(ms);
  return rounded < 1000 ? `${rounded} ms` : `${(rounded / 1000).toFixed(1)} s`;
}

export function testHeadline(result: SlotTestResult): string {
  if (!result.ok) return `No route answered (${latencyText(result.latency_ms)}).`;
  return `Answered by ${result.provider} · ${result.model} in ${latencyText(result.latency_ms)}${result.fell_back ? ', after a fallback' : ''}.`;
}

/** One line per route that did not answer, in the order tried. */
export function attemptLines(attempts: readonly TestAttempt[]): string[] {
  return attempts
    .filter((a) => a.outcome !== 'served')
    .map((a) => `${a.provider} · ${a.model} ${a.outcome === 'skipped' ? 'skipped' : 'failed'}${a.detail ? `: ${a.detail}` : ''}`);
}
