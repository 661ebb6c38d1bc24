// What the Skills page says about its data, as pure functions (tested in skills-view.test.ts).
import type { Proposal } from './skills-api.js';

/** "3 loads" / "1 load" / "never loaded". */
export function loadsText(loads: number): string {
  if (loads === 0) return 'never loaded';
  return `${loads} load${loads === 1 ? '' : 's'}`;
}

/** An ISO time as `YYYY-MM-DD HH:MM UTC`, or "—" for none. */
export function whenText(iso: string | null): string {
  if (iso === null) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '—';
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A proposal in words, as the CLI's report says it. */
export function proposalText(proposal: Pick<Proposal, 'action' | 'into' | 'description'>): string {
  if (proposal.action === 'merge') return `merge into ${proposal.into ?? '?'}`;
  if (proposal.action === 'rewrite') return `rewrite the description: "${proposal.description ?? ''}"`;
  return proposal.action;
}

/** The archive proposals that Apply can still move (their skill is installed). */
export function applicableArchives(proposals: readonly Proposal[]): Proposal[] {
  return proposals.filter((proposal) => proposal.action === 'archive' && proposal.installed);
}

/** Where an installed skill came from, for a person. */
export function sourceText(source: string | null): string {
  return source ?? 'put in place by hand';
}
