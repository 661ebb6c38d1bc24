import { describe, expect, it } from 'vitest';
import { reportsBeyond } from './curator-reports.js';

describe('reportsBeyond', () => {
  it('keeps the newest reports by date and never names another file', () => {
    const names = ['2026-11-01.md', 'notes.txt', '2026-11-03.md', '2025-12-31.md', '2026-11-02.md', 'x.md'];
    expect(reportsBeyond(names, 2)).toEqual(['2026-11-01.md', '2025-12-31.md']);
    expect(reportsBeyond(names, 10)).toEqual([]);
    expect(reportsBeyond(names, 0)).toEqual(['2026-11-03.md', '2026-11-02.md', '2026-11-01.md', '2025-12-31.md']);
  });
});
