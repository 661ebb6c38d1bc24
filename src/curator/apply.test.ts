import { describe, expect, it } from 'vitest';
import { chooseArchives, proposalId } from './apply.js';
import { newestReportName } from './last-report.js';
import type { Proposal } from './proposals.js';

const PROPOSALS: Proposal[] = [
  { skill: 'lint', action: 'archive', reason: 'unused' },
  { skill: 'review', action: 'archive', reason: 'vague' },
  { skill: 'deploy', action: 'keep', reason: 'used' },
  { skill: 'old-deploy', action: 'merge', reason: 'dup', into: 'deploy' },
];
const INSTALLED = new Set(['lint', 'review', 'deploy', 'old-deploy']);

describe('choosing the archive proposals to apply', () => {
  it('names a proposal by its action and skill', () => {
    expect(PROPOSALS.map(proposalId)).toEqual(['archive:lint', 'archive:review', 'keep:deploy', 'merge:old-deploy']);
  });

  it('takes the archive proposals named, in order, each once', () => {
    expect(chooseArchives(PROPOSALS, ['archive:review', 'archive:lint', 'archive:review'], INSTALLED)).toEqual({ ok: true, skills: ['review', 'lint'] });
  });

  it('refuses the whole request for an unknown id, a proposal that is not an archive, a skill gone, or no ids', () => {
    expect(chooseArchives(PROPOSALS, ['archive:lint', 'archive:nope'], INSTALLED)).toEqual({ ok: false, code: 'unknown', error: 'no proposal "archive:nope" in the last curator report' });
    expect(chooseArchives(PROPOSALS, ['merge:old-deploy'], INSTALLED)).toEqual({ ok: false, code: 'not_archive', error: 'proposal "merge:old-deploy" is a merge proposal; only archive proposals can be applied' });
    expect(chooseArchives(PROPOSALS, ['archive:lint'], new Set(['review']))).toEqual({ ok: false, code: 'not_installed', error: 'skill "lint" is no longer installed (already archived or removed)' });
    expect(chooseArchives(PROPOSALS, [], INSTALLED)).toMatchObject({ ok: false, code: 'empty' });
  });
});

describe('the newest report', () => {
  it('is the latest dated .md file; other files are not reports', () => {
    expect(newestReportName(['2026-01-02.md', 'last-run.json', '2026-11-20.md', '2026-03-01.md', 'notes.md', '2027-01-01.md.tmp'])).toBe('2026-11-20.md');
    expect(newestReportName(['last-run.json'])).toBeUndefined();
  });
});
