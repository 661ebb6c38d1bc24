// The dashboard's Apply: the last report's archive proposals named by id, moved to the archive
// (the same move as `iris curator review --apply`). Refusals are values with a closed code.
import { listSkills } from '../agent/tools/skills/skills.js';
import { chooseArchives } from './apply.js';
import { archiveSkills, type Archived } from './archive.js';
import { readLastReport } from './last-report.js';

export type ApplyResult =
  | { readonly ok: true; readonly report: string; readonly archived: readonly Archived[] }
  | { readonly ok: false; readonly code: 'no_report' | 'unknown' | 'not_archive' | 'not_installed' | 'empty'; readonly error: string };

export async function applyArchiveProposals(homeDir: string, skillsDir: string, ids: readonly string[]): Promise<ApplyResult> {
  const last = await readLastReport(homeDir);
  if (!last?.data) return { ok: false, code: 'no_report', error: 'no curator report with proposals to apply (iris curator review writes one)' };
  const installed = new Set(((await listSkills(skillsDir)) ?? []).map((entry) => entry.folder));
  const choice = chooseArchives(last.data.proposals, ids, installed);
  if (!choice.ok) return choice;
  return { ok: true, report: last.path, archived: await archiveSkills(skillsDir, choice.skills) };
}
