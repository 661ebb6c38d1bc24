import { describe, expect, it } from 'vitest';
import { findingCommentBody, reviewSummary, unreadableSummary } from './finding-comment.js';
import type { Finding } from './findings.js';

const FP = '0123456789abcdef'.repeat(4);
const finding: Finding = { path: 'src/a.ts', line: 5, severity: 'major', title: 'Off by one', body: 'Stops early.', suggestion: 'for (i = 0; i <= n; i++) {' };

describe('findingCommentBody', () => {
  it('GitHub: severity, title, body, a suggestion block and the marker', () => {
    expect(findingCommentBody('github', finding, FP)).toBe('**major**: Off by one\n\nStops early.\n\n```suggestion\nfor (i = 0; i <= n; i++) {\n```\n\n<!-- iris-finding:0123456789ab -->');
  });

  it("GitLab's suggestion form counts the lines above, and a fence outgrows backticks in the text", () => {
    const body = findingCommentBody('gitlab', { ...finding, startLine: 3, suggestion: 'a\n```\nb' }, FP);
    expect(body).toContain('````suggestion:-2+0\na\n```\nb\n````');
  });
});

describe('reviewSummary', () => {
  it('counts by severity and lists what is not on a changed line', () => {
    const text = reviewSummary({ summary: 'Two issues.', findings: [finding, { ...finding, severity: 'nit', line: 90, title: 'Name' }], notPlaced: [{ ...finding, severity: 'nit', line: 90, title: 'Name', body: 'Rename\nit.' }], repeats: 1, outdated: 0, rulesProblem: 'max_findings: too big', diffNote: 'big.ts was cut to its hunk headers' });
    expect(text).toBe(
      [
        'Two issues.',
        '**Findings**: 0 critical, 1 major, 0 minor, 1 nit',
        '1 raised before and not repeated',
        '### Not on a changed line\n\n- **nit** `src/a.ts:90`: Name — Rename it.',
        '> `.iris/review.yaml` could not be used (the defaults were): max_findings: too big',
        '> big.ts was cut to its hunk headers',
      ].join('\n\n'),
    );
  });

  it('an unreadable answer is quoted', () => {
    expect(unreadableSummary('LGTM\nship it')).toBe("The review could not be read as findings; the model's answer as it came:\n\n> LGTM\n> ship it");
  });
});
