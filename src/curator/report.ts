// The review's report: the proposals with their reasons (and each skill's usage), as printed and
// as written to `$IRIS_HOME/curator/<YYYY-MM-DD>.md` (owner-only).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write.js';
import type { Archived } from './archive.js';
import type { Proposal, SkillForReview } from './proposals.js';

export const CURATOR_FOLDER = 'curator';

export type Report = {
  /** Epoch milliseconds. */
  readonly at: number;
  readonly days: number;
  readonly skills: readonly SkillForReview[];
  readonly proposals: readonly Proposal[];
  readonly invalid: readonly { readonly folder: string; readonly error: string }[];
};

export function curatorDir(homeDir: string): string {
  return join(homeDir, CURATOR_FOLDER);
}

/** `2026-11-26`, in UTC. */
export function reportDate(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function describe(proposal: Proposal): string {
  if (proposal.action === 'merge') return `merge into ${proposal.into ?? '?'}`;
  if (proposal.action === 'rewrite') return `rewrite the description: "${proposal.description ?? ''}"`;
  return proposal.action;
}

function usageOf(skill: SkillForReview | undefined, days: number): string {
  if (!skill) return '';
  const last = skill.lastLoadAt === null ? 'none' : new Date(skill.lastLoadAt).toISOString();
  return ` (${skill.loads} load${skill.loads === 1 ? '' : 's'} in ${days} days, last: ${last})`;
}

export function formatReport(report: Report): string {
  const lines = [`# Curator review, ${reportDate(report.at)}`, '', `Skills: ${report.skills.length}; usage over the last ${report.days} days.`, ''];
  if (report.skills.length === 0) lines.push('No skills installed: nothing to review.');
  const bySkill = new Map(report.skills.map((skill) => [skill.name, skill]));
  for (const proposal of report.proposals) {
    lines.push(`- ${proposal.skill}: ${describe(proposal)}${usageOf(bySkill.get(proposal.skill), report.days)}`, `  reason: ${proposal.reason}`);
  }
  const unreviewed = report.skills.filter((skill) => !report.proposals.some((p) => p.skill === skill.name));
  if (unreviewed.length > 0) lines.push('', `No proposal for: ${unreviewed.map((skill) => skill.name).join(', ')}.`);
  if (report.invalid.length > 0) {
    lines.push('', 'Invalid skill folders (not reviewed):', ...report.invalid.map((entry) => `- ${entry.folder}: ${entry.error}`));
  }
  return `${lines.join('\n')}\n`;
}

export function formatArchived(moved: readonly Archived[]): string {
  if (moved.length === 0) return 'nothing to archive';
  return moved.map((entry) => `archived ${entry.skill} → ${entry.to}`).join('\n');
}

/** Writes the report (0600) and returns its path; a second review the same day replaces it. */
export async function writeReport(homeDir: string, at: number, text: string): Promise<string> {
  const dir = curatorDir(homeDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${reportDate(at)}.md`);
  await writeFileAtomic(path, text, 0o600);
  return path;
}
