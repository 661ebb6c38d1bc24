// A review's plan: from the model's answer, the PR's files and what was posted on the PR before,
// what the delivery posts (the summary text, the inline comments), and what it marks outdated;
// also what `iris webhook deliveries --show` tells of the review. Pure: kept (as JSON) with the
// run's output, so a retried delivery posts what the run decided and never runs the model again.
import type { ReviewComment, ReviewShas } from '../delivery/pr-review-poster.js';
import type { Forge } from '../webhook/pr-event.js';
import { diffLines, type DiffLines } from './diff-lines.js';
import type { ReviewFile } from './diff-reader.js';
import { findingCommentBody, reviewSummary, unreadableSummary } from './finding-comment.js';
import { keptFindings, type ParsedAnswer } from './findings.js';
import { placeFindings, type FindingState, type RecordedFindingRef } from './placement.js';
import type { ReviewRules } from './rules.js';

export type PlannedComment = ReviewComment & { readonly severity: string; readonly title: string; readonly lineText: string };
export type FindingNote = { readonly path: string; readonly line: number; readonly severity: string; readonly title: string };

export type ReviewPlan = {
  readonly shas: ReviewShas;
  /** The summary: the living summary comment's text, or the review body (mode new). */
  readonly summary: string;
  readonly inline: readonly PlannedComment[];
  readonly notPlaced: readonly FindingNote[];
  readonly repeats: ReadonlyArray<FindingNote & { readonly state: FindingState }>;
  readonly outdated: ReadonlyArray<FindingNote & { readonly fingerprint: string; readonly threadId: string | null; readonly commentId: string | null }>;
  /** The answer could not be read as findings (twice): the summary quotes it. */
  readonly unreadable?: true;
  /**
   * Set by the delivery: the outdated findings whose threads a person had resolved first (left as
   * they were, with no reply). Kept with the plan, so the event's story says what it did even after
   * the finding's state moves on.
   */
  readonly resolvedFirst?: readonly string[];
};

export type RecordedForPlan = RecordedFindingRef & { readonly title: string; readonly severity: string; readonly threadId: string | null; readonly commentId: string | null };

export type PlanInputs = {
  readonly forge: Forge;
  readonly rules: Pick<ReviewRules, 'severityThreshold' | 'maxFindings'>;
  readonly rulesProblem?: string;
  readonly files: readonly ReviewFile[];
  readonly diffNote?: string;
  readonly shas: ReviewShas;
};

export function buildReviewPlan(inputs: PlanInputs, answer: ParsedAnswer, modelText: string, recorded: readonly RecordedForPlan[]): ReviewPlan {
  const extras = { ...(inputs.rulesProblem === undefined ? {} : { rulesProblem: inputs.rulesProblem }), ...(inputs.diffNote === undefined ? {} : { diffNote: inputs.diffNote }) };
  if (!answer.ok) return { shas: inputs.shas, summary: unreadableSummary(modelText, extras), inline: [], notPlaced: [], repeats: [], outdated: [], unreadable: true };
  const diffs = new Map<string, DiffLines>(inputs.files.map((file) => [file.path, diffLines(file.patch)]));
  const oldPaths = new Map(inputs.files.map((file) => [file.path, file.previousPath ?? file.path]));
  const { kept } = keptFindings(answer.answer.findings, inputs.rules);
  const placed = placeFindings(kept, diffs, recorded);
  const note = (f: { path: string; line: number; severity: string; title: string }): FindingNote => ({ path: f.path, line: f.line, severity: f.severity, title: f.title });
  const inline = placed.inline.map(
    ({ finding, fingerprint, lineText, line }): PlannedComment => ({
      fingerprint,
      path: finding.path,
      oldPath: oldPaths.get(finding.path) ?? finding.path,
      line: finding.line,
      ...(finding.startLine === undefined ? {} : { startLine: finding.startLine }),
      ...(line.oldLine === undefined ? {} : { oldLine: line.oldLine }),
      body: findingCommentBody(inputs.forge, finding, fingerprint),
      severity: finding.severity,
      title: finding.title,
      lineText,
    }),
  );
  const summary = reviewSummary({ summary: answer.answer.summary, findings: kept, notPlaced: placed.summary, repeats: placed.repeats.length, outdated: placed.outdated.length, ...extras });
  return {
    shas: inputs.shas,
    summary,
    inline,
    notPlaced: placed.summary.map(note),
    repeats: placed.repeats.map((r) => ({ ...note(r.finding), state: r.state })),
    outdated: placed.outdated.map((r) => ({ ...note(r), fingerprint: r.fingerprint, threadId: r.threadId, commentId: r.commentId })),
  };
}

/** The plan as kept in the store, read back; undefined when it is not one (a newer or broken row). */
export function parseReviewPlan(text: string): ReviewPlan | undefined {
  try {
    const value = JSON.parse(text) as Partial<ReviewPlan>;
    return typeof value.summary === 'string' && Array.isArray(value.inline) && Array.isArray(value.outdated) && typeof value.shas === 'object' ? (value as ReviewPlan) : undefined;
  } catch {
    return undefined;
  }
}
