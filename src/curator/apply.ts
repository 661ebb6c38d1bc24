// Applying a report's archive proposals after the fact (the dashboard's Apply): the proposals are
// named by id, and only archive proposals of that report may be applied, the same move as
// `iris curator review --apply` makes (archiveSkills). Choosing is pure; moving is archive.ts's.
import type { Proposal } from './proposals.js';

/** A proposal's id within its report: a report has at most one proposal per skill. */
export function proposalId(proposal: Pick<Proposal, 'action' | 'skill'>): string {
  return `${proposal.action}:${proposal.skill}`;
}

export type ArchiveChoice =
  | { readonly ok: true; readonly skills: readonly string[] }
  | { readonly ok: false; readonly code: 'unknown' | 'not_archive' | 'not_installed' | 'empty'; readonly error: string };

/**
 * The skills to archive for `ids`, in the order given (each once). Every id must name an archive
 * proposal of the report whose skill is still installed; one that does not refuses the whole
 * request, so nothing moves halfway.
 */
export function chooseArchives(proposals: readonly Proposal[], ids: readonly string[], installed: ReadonlySet<string>): ArchiveChoice {
  if (ids.length === 0) return { ok: false, code: 'empty', error: 'name at least one proposal to apply' };
  const byId = new Map(proposals.map((proposal) => [proposalId(proposal), proposal]));
  const skills: string[] = [];
  for (const id of ids) {
    const proposal = byId.get(id);
    if (!proposal) return { ok: false, code: 'unknown', error: `no proposal ${JSON.stringify(id)} in the last curator report` };
    if (proposal.action !== 'archive') return { ok: false, code: 'not_archive', error: `proposal ${JSON.stringify(id)} is a ${proposal.action} proposal; only archive proposals can be applied` };
    if (!installed.has(proposal.skill)) return { ok: false, code: 'not_installed', error: `skill "${proposal.skill}" is no longer installed (already archived or removed)` };
    if (!skills.includes(proposal.skill)) skills.push(proposal.skill);
  }
  return { ok: true, skills };
}
