import { describe, expect, it } from 'vitest';
import { formatReport, type Report } from './report.js';
import { reportDataComment, splitReportFile } from './report-data.js';

const REPORT: Report = {
  at: Date.UTC(2026, 10, 20, 8, 0, 0),
  days: 30,
  skills: [
    { name: 'deploy', description: 'd', text: 't', loads: 2, lastLoadAt: Date.UTC(2026, 10, 19) },
    { name: 'lint', description: 'l', text: 't', loads: 0, lastLoadAt: null },
  ],
  proposals: [
    { skill: 'lint', action: 'archive', reason: 'unused --> <!-- gone -->\nreally' },
    { skill: 'deploy', action: 'rewrite', reason: 'vague', description: 'Deploys <b>it</b>' },
  ],
  invalid: [{ folder: 'Bad', error: 'SKILL.md is missing' }],
};

describe('the report data kept in the report file', () => {
  it('round-trips through the file, and the text is the report as printed', () => {
    const text = formatReport(REPORT);
    const file = `${text}${reportDataComment(REPORT)}`;
    const split = splitReportFile(file);
    expect(split.text).toBe(text);
    expect(split.data).toEqual({
      at: REPORT.at,
      days: 30,
      skills: [
        { name: 'deploy', loads: 2, lastLoadAt: Date.UTC(2026, 10, 19) },
        { name: 'lint', loads: 0, lastLoadAt: null },
      ],
      proposals: REPORT.proposals,
      invalid: REPORT.invalid,
    });
  });

  it('keeps a model\'s text from closing the comment: one comment, on one line', () => {
    const comment = reportDataComment(REPORT);
    expect(comment.match(/-->/g)).toHaveLength(1);
    expect(comment.match(/<!--/g)).toHaveLength(1);
    expect(comment.trim().split('\n')).toHaveLength(1);
  });

  it('gives no data for a report written without it, or with a broken one', () => {
    expect(splitReportFile('# Curator review\n')).toEqual({ text: '# Curator review\n', data: undefined });
    expect(splitReportFile('# r\n\n<!-- iris-curator-report {"at":1} -->\n')).toEqual({ text: '# r\n', data: undefined });
    expect(splitReportFile('# r\n\n<!-- iris-curator-report {not json} -->\n').data).toBeUndefined();
  });
});
