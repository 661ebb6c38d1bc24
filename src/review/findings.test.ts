import { describe, expect, it } from 'vitest';
import { keptFindings, parseReviewAnswer, retryPrompt, type Finding } from './findings.js';

const finding = (over: Partial<Record<string, unknown>> = {}) => ({ path: 'src/a.ts', line: 3, severity: 'major', title: 'Off by one', body: 'The loop stops early.', ...over });

describe('parseReviewAnswer', () => {
  it('reads the summary and findings, ignoring unknown keys', () => {
    const text = JSON.stringify({ summary: 'Looks fine.', confidence: 0.9, findings: [finding({ suggestion: 'for (i = 0; i <= n; i++)', extra: true, start_line: 2 })] });
    expect(parseReviewAnswer(text)).toEqual({
      ok: true,
      answer: { summary: 'Looks fine.', findings: [{ path: 'src/a.ts', line: 3, startLine: 2, severity: 'major', title: 'Off by one', body: 'The loop stops early.', suggestion: 'for (i = 0; i <= n; i++)' }] },
    });
  });

  it('finds the object in a ```json fence with prose around it', () => {
    const text = 'Here is my review:\n\n```json\n{"summary": "ok", "findings": []}\n```\nThanks.';
    expect(parseReviewAnswer(text)).toEqual({ ok: true, answer: { summary: 'ok', findings: [] } });
  });

  it('names what is missing or wrong', () => {
    expect(parseReviewAnswer('LGTM!')).toEqual({ ok: false, problem: 'the answer holds no JSON object' });
    expect(parseReviewAnswer('{"findings": []}')).toEqual({ ok: false, problem: 'the object has no "summary"' });
    expect(parseReviewAnswer('{"summary": "s"}')).toEqual({ ok: false, problem: 'the object has no "findings"' });
    expect(parseReviewAnswer(JSON.stringify({ summary: 's', findings: [{ path: 'a', title: 't' }] }))).toEqual({ ok: false, problem: 'findings[0] has no "line", "severity", "body"' });
    expect(parseReviewAnswer(JSON.stringify({ summary: 's', findings: [finding({ line: '3' })] }))).toEqual({ ok: false, problem: 'findings[0].line must be a positive integer (a line number on the new side)' });
    expect(parseReviewAnswer(JSON.stringify({ summary: 's', findings: [finding(), finding({ severity: 'blocker' })] }))).toEqual({ ok: false, problem: 'findings[1].severity must be one of critical, major, minor, nit' });
    expect(parseReviewAnswer(JSON.stringify({ summary: 's', findings: [finding({ start_line: 9 })] }))).toEqual({ ok: false, problem: 'findings[0].start_line must be a positive integer no greater than line' });
  });

  it('the retry prompt names the problem', () => {
    expect(retryPrompt('the object has no "summary"')).toMatch(/^Your review could not be read as findings: the object has no "summary"\.\n/);
  });
});

describe('keptFindings', () => {
  const f = (severity: Finding['severity'], title: string): Finding => ({ path: 'a', line: 1, severity, title, body: '' });
  it('keeps the threshold and above, most severe first, at most max', () => {
    const all = [f('nit', 'n1'), f('major', 'm1'), f('critical', 'c1'), f('minor', 'x1'), f('major', 'm2')];
    expect(keptFindings(all, { severityThreshold: 'major', maxFindings: 10 })).toEqual({ kept: [f('critical', 'c1'), f('major', 'm1'), f('major', 'm2')], dropped: 2 });
    expect(keptFindings(all, { severityThreshold: 'nit', maxFindings: 2 }).kept.map((x) => x.title)).toEqual(['c1', 'm1']);
    expect(keptFindings(all, { severityThreshold: 'nit', maxFindings: 0 }).kept).toEqual([]);
  });
});
