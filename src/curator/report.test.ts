import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatArchived, formatReport, reportDate, writeReport } from './report.js';

const AT = Date.UTC(2026, 10, 26, 9, 30);
const skill = (name: string, loads: number, lastLoadAt: number | null) => ({ name, description: `${name} things`, text: 'body', loads, lastLoadAt });

describe('formatReport', () => {
  it('lists each proposal with its usage and reason, the skills without one, and the invalid folders', () => {
    const text = formatReport({
      at: AT,
      days: 30,
      skills: [skill('deploy', 1, AT - 1000), skill('old', 0, null), skill('lint', 4, AT), skill('quiet', 2, AT)],
      proposals: [
        { skill: 'deploy', action: 'keep', reason: 'used' },
        { skill: 'old', action: 'archive', reason: 'never loaded' },
        { skill: 'lint', action: 'merge', into: 'deploy', reason: 'overlaps' },
        { skill: 'quiet', action: 'rewrite', description: 'Quiet hours', reason: 'vague' },
      ],
      invalid: [{ folder: 'broken', error: 'no front matter' }],
    });
    expect(text).toBe(
      [
        '# Curator review, 2026-11-26',
        '',
        'Skills: 4; usage over the last 30 days.',
        '',
        '- deploy: keep (1 load in 30 days, last: 2026-11-26T09:29:59.000Z)',
        '  reason: used',
        '- old: archive (0 loads in 30 days, last: none)',
        '  reason: never loaded',
        '- lint: merge into deploy (4 loads in 30 days, last: 2026-11-26T09:30:00.000Z)',
        '  reason: overlaps',
        '- quiet: rewrite the description: "Quiet hours" (2 loads in 30 days, last: 2026-11-26T09:30:00.000Z)',
        '  reason: vague',
        '',
        'Invalid skill folders (not reviewed):',
        '- broken: no front matter',
        '',
      ].join('\n'),
    );
  });

  it('says when nothing is installed, and names the skills the slot left out', () => {
    expect(formatReport({ at: AT, days: 7, skills: [], proposals: [], invalid: [] })).toContain('No skills installed: nothing to review.');
    expect(formatReport({ at: AT, days: 7, skills: [skill('a', 0, null), skill('b', 0, null)], proposals: [{ skill: 'a', action: 'keep', reason: 'r' }], invalid: [] })).toContain(
      '\nNo proposal for: b.\n',
    );
  });
});

describe('formatArchived and writeReport', () => {
  it('says what moved, or that nothing did', () => {
    expect(formatArchived([])).toBe('nothing to archive');
    expect(formatArchived([{ skill: 'old', to: '/h/skills/.archive/old' }] as never)).toBe('archived old → /h/skills/.archive/old');
  });

  it('writes the report under curator/<UTC date>.md, owner-only, replacing one of the same day', async () => {
    const home = await mkdtemp(join(tmpdir(), 'iris-curator-'));
    try {
      expect(reportDate(Date.UTC(2026, 0, 2, 23, 59))).toBe('2026-01-02');
      const path = await writeReport(home, AT, 'first');
      expect(path).toBe(join(home, 'curator', '2026-11-26.md'));
      await writeReport(home, AT + 1000, 'second');
      expect(await readFile(path, 'utf8')).toBe('second');
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
