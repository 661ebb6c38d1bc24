// Where each finding of a review goes, and which earlier findings the new diff has made outdated.
// Pure: the findings, the diff's lines per file and the PR's recorded findings come in as values.
//
// - inline: on a line of the diff (added or context), as the code hosts require;
// - summary: its line is not in the diff ("Not on a changed line" in the summary);
// - repeat: its fingerprint was posted on this PR before and is still open, was answered by a
//   human, dismissed, or resolved (an outdated one may be posted again: its code came back);
// - outdated: a recorded open or answered finding whose line's code is no longer in its file's
//   diff (a reply such as "will fix" does not keep a fixed finding's thread open; a dismissed one
//   stays dismissed, so that it is never raised again even if its line comes back).
import { normalizeLineText, type DiffLine, type DiffLines } from './diff-lines.js';
import { findingFingerprint } from './fingerprint.js';
import type { Finding } from './findings.js';

import type { FindingState } from '../domain/finding-states.js';

export { FINDING_STATES, type FindingState } from '../domain/finding-states.js';

/** What placement needs of a finding recorded on the PR (store/pr-finding-types.ts has the rest). */
export type RecordedFindingRef = {
  readonly fingerprint: string;
  readonly path: string;
  readonly line: number;
  /** The normalised text of its line when it was posted. */
  readonly lineText: string;
  readonly state: FindingState;
};

export type InlineFinding = {
  readonly finding: Finding;
  readonly fingerprint: string;
  readonly lineText: string;
  readonly line: DiffLine;
};

export type Placement<R extends RecordedFindingRef = RecordedFindingRef> = {
  readonly inline: InlineFinding[];
  readonly summary: Finding[];
  readonly repeats: Array<{ readonly finding: Finding; readonly fingerprint: string; readonly state: FindingState }>;
  readonly outdated: R[];
};

/** A repeat is skipped in these states; `outdated` is not one (the code came back). */
const STOPS_A_REPEAT: ReadonlySet<FindingState> = new Set(['open', 'answered', 'dismissed', 'resolved']);
/** A finding in these states is marked outdated when its code leaves the diff. */
export const GOES_OUTDATED: ReadonlySet<FindingState> = new Set(['open', 'answered']);

export function placeFindings<R extends RecordedFindingRef>(findings: readonly Finding[], diffs: ReadonlyMap<string, DiffLines>, recorded: readonly R[]): Placement<R> {
  const byFingerprint = new Map(recorded.map((entry) => [entry.fingerprint, entry]));
  const placed: Placement<R> = { inline: [], summary: [], repeats: [], outdated: [] };
  const seen = new Set<string>();
  for (const finding of findings) {
    const line = diffs.get(finding.path)?.get(finding.line);
    if (line === undefined) {
      placed.summary.push(finding);
      continue;
    }
    const lineText = normalizeLineText(line.text);
    const fingerprint = findingFingerprint(finding.path, finding.title, line.text);
    const before = byFingerprint.get(fingerprint);
    if (before !== undefined && STOPS_A_REPEAT.has(before.state)) {
      placed.repeats.push({ finding, fingerprint, state: before.state });
      continue;
    }
    if (seen.has(fingerprint)) {
      placed.repeats.push({ finding, fingerprint, state: 'open' });
      continue;
    }
    seen.add(fingerprint);
    placed.inline.push({ finding: withinDiff(finding, diffs.get(finding.path)!), fingerprint, lineText, line });
  }
  for (const entry of recorded) {
    if (!GOES_OUTDATED.has(entry.state)) continue;
    const lines = diffs.get(entry.path);
    const stillThere = lines !== undefined && [...lines.values()].some((line) => normalizeLineText(line.text) === entry.lineText);
    if (!stillThere) placed.outdated.push(entry);
  }
  return placed;
}

/**
 * A range comment needs every line of its range in the diff: otherwise it becomes a comment on its
 * last line, and its suggestion (which would replace lines the host cannot show) is left out.
 */
function withinDiff(finding: Finding, lines: DiffLines): Finding {
  if (finding.startLine === undefined) return finding;
  for (let at = finding.startLine; at <= finding.line; at += 1) {
    if (!lines.has(at)) {
      return { path: finding.path, line: finding.line, severity: finding.severity, title: finding.title, body: finding.body };
    }
  }
  return finding;
}
