// The text Iris posts for a finding (its inline comment) and the review's summary. Pure.
// DECISIONS § "PR review findings": suggestions as a fenced ```suggestion block (GitLab's
// ```suggestion:-N+0 form, N lines above the commented one), the fingerprint's marker at the end.
import type { Forge } from '../webhook/pr-event.js';
import { findingMarker } from './fingerprint.js';
import { SEVERITIES, type Finding, type Severity } from './findings.js';

/** A fence longer than any run of backticks in the text, so a suggestion cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function suggestionBlock(forge: Forge, finding: Pick<Finding, 'suggestion' | 'startLine' | 'line'>): string | undefined {
  if (finding.suggestion === undefined) return undefined;
  const fence = fenceFor(finding.suggestion);
  const above = finding.startLine === undefined ? 0 : finding.line - finding.startLine;
  const info = forge === 'gitlab' ? `suggestion:-${above}+0` : 'suggestion';
  const text = finding.suggestion.endsWith('\n') ? finding.suggestion : `${finding.suggestion}\n`;
  return `${fence}${info}\n${text}${fence}`;
}

export function findingCommentBody(forge: Forge, finding: Finding, fingerprint: string): string {
  const parts = [`**${finding.severity}**: ${finding.title}`];
  if (finding.body.trim() !== '') parts.push(finding.body.trim());
  const suggestion = suggestionBlock(forge, finding);
  if (suggestion !== undefined) parts.push(suggestion);
  parts.push(findingMarker(fingerprint));
  return parts.join('\n\n');
}

export const OUTDATED_REPLY = 'Outdated: the code this was about changed.';

/** The hidden line of an outdated reply: after a crash between posting and recording it, it is found in the thread. */
export function outdatedMarker(fingerprint: string): string {
  return `<!-- iris-outdated:${fingerprint.slice(0, 12)} -->`;
}

export function outdatedReply(fingerprint: string): string {
  return `${OUTDATED_REPLY}\n\n${outdatedMarker(fingerprint)}`;
}
export const UNREADABLE_REVIEW = 'The review could not be read as findings';
const MAX_QUOTED_CHARS = 8_000;

export type SummaryInput = {
  readonly summary: string;
  /** Every finding the rules kept, placed or not (the counts are of these). */
  readonly findings: readonly Finding[];
  readonly notPlaced: readonly Finding[];
  readonly repeats: number;
  readonly outdated: number;
  readonly rulesProblem?: string;
  readonly diffNote?: string;
};

export function reviewSummary(input: SummaryInput): string {
  const counts = SEVERITIES.map((severity: Severity) => [severity, input.findings.filter((f) => f.severity === severity).length] as const);
  const parts = [input.summary.trim()];
  parts.push(`**Findings**: ${counts.map(([severity, count]) => `${count} ${severity}`).join(', ')}`);
  if (input.repeats > 0 || input.outdated > 0) {
    const said = [
      ...(input.repeats > 0 ? [`${input.repeats} raised before and not repeated`] : []),
      ...(input.outdated > 0 ? [`${input.outdated} earlier ${input.outdated === 1 ? 'finding' : 'findings'} marked outdated`] : []),
    ];
    parts.push(said.join('; '));
  }
  if (input.notPlaced.length > 0) {
    parts.push(['### Not on a changed line', '', ...input.notPlaced.map((f) => `- **${f.severity}** \`${f.path}:${f.line}\`: ${f.title}${f.body.trim() === '' ? '' : ` — ${oneLine(f.body)}`}`)].join('\n'));
  }
  if (input.rulesProblem !== undefined) parts.push(`> \`.iris/review.yaml\` could not be used (the defaults were): ${oneLine(input.rulesProblem)}`);
  if (input.diffNote !== undefined && input.diffNote.trim() !== '') parts.push(`> ${oneLine(input.diffNote)}`);
  return parts.filter((part) => part !== '').join('\n\n');
}

/** Malformed twice: the model's text is quoted, with no inline comments. */
export function unreadableSummary(modelText: string, extras: Pick<SummaryInput, 'rulesProblem' | 'diffNote'> = {}): string {
  const cut = modelText.length > MAX_QUOTED_CHARS ? `${modelText.slice(0, MAX_QUOTED_CHARS)}…` : modelText;
  const quoted = cut.split('\n').map((line) => `> ${line}`).join('\n');
  const parts = [`${UNREADABLE_REVIEW}; the model's answer as it came:`, quoted];
  if (extras.rulesProblem !== undefined) parts.push(`> \`.iris/review.yaml\` could not be used (the defaults were): ${oneLine(extras.rulesProblem)}`);
  if (extras.diffNote !== undefined && extras.diffNote.trim() !== '') parts.push(`> ${oneLine(extras.diffNote)}`);
  return parts.join('\n\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
