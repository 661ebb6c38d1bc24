import { describe, expect, it } from 'vitest';
import { diffLines } from './diff-lines.js';
import { findingFingerprint } from './fingerprint.js';
import type { Finding } from './findings.js';
import { placeFindings, type RecordedFindingRef } from './placement.js';

const PATCH = ['@@ -1,3 +1,4 @@', ' keep();', '-old();', '+fresh();', '+more();', ' end();'].join('\n');
const diffs = new Map([['src/a.ts', diffLines(PATCH)]]);
const finding = (line: number, title = 'T', over: Partial<Finding> = {}): Finding => ({ path: 'src/a.ts', line, severity: 'major', title, body: 'b', ...over });
const recorded = (line: number, title: string, text: string, state: RecordedFindingRef['state']): RecordedFindingRef => ({ fingerprint: findingFingerprint('src/a.ts', title, text), path: 'src/a.ts', line, lineText: text, state });

describe('placeFindings', () => {
  it('puts a finding on an added or context line inline, and one off the diff in the summary', () => {
    const placed = placeFindings([finding(2), finding(1, 'C'), finding(40), finding(1, 'X', { path: 'other.ts' })], diffs, []);
    expect(placed.inline.map((p) => [p.finding.line, p.line.kind, p.lineText, p.fingerprint])).toEqual([
      [2, 'added', 'fresh();', findingFingerprint('src/a.ts', 'T', 'fresh();')],
      [1, 'context', 'keep();', findingFingerprint('src/a.ts', 'C', 'keep();')],
    ]);
    expect(placed.summary.map((f) => [f.path, f.line])).toEqual([['src/a.ts', 40], ['other.ts', 1]]);
  });

  it('skips a repeat of an open, answered, dismissed or resolved finding; posts an outdated one again', () => {
    for (const state of ['open', 'answered', 'dismissed', 'resolved'] as const) {
      const placed = placeFindings([finding(2)], diffs, [recorded(7, 'T', 'fresh();', state)]);
      expect(placed.inline).toEqual([]);
      expect(placed.repeats.map((r) => r.state)).toEqual([state]);
    }
    const back = placeFindings([finding(2)], diffs, [recorded(2, 'T', 'fresh();', 'outdated')]);
    expect(back.inline).toHaveLength(1);
    expect(back.repeats).toEqual([]);
  });

  it('the same finding twice in one answer is posted once', () => {
    const placed = placeFindings([finding(2), finding(2)], diffs, []);
    expect(placed.inline).toHaveLength(1);
    expect(placed.repeats).toHaveLength(1);
  });

  it('marks an open or answered finding whose code left the diff outdated, not one whose code only moved, nor a dismissed or resolved one', () => {
    const gone = recorded(2, 'G', 'old();', 'open');
    const moved = recorded(9, 'M', 'more();', 'open');
    const answered = recorded(2, 'A', 'vanished();', 'answered');
    const dismissed = recorded(3, 'D', 'vanished();', 'dismissed');
    const resolved = recorded(4, 'R', 'vanished();', 'resolved');
    const elsewhere = { ...recorded(1, 'E', 'x();', 'open'), path: 'gone.ts' };
    expect(placeFindings([], diffs, [gone, moved, answered, dismissed, resolved, elsewhere]).outdated).toEqual([gone, answered, elsewhere]);
  });

  it('a range with a line outside the diff becomes a comment on its last line, without the suggestion', () => {
    const placed = placeFindings([finding(3, 'R', { startLine: 1, suggestion: 'x' }), finding(3, 'S', { startLine: 2, suggestion: 'y' })], new Map([['src/a.ts', diffLines('@@ -1,0 +2,2 @@\n+a\n+b')]]), []);
    expect(placed.inline.map((p) => p.finding)).toEqual([finding(3, 'R'), finding(3, 'S', { startLine: 2, suggestion: 'y' })]);
  });
});
