// Everything a review needs before the model runs, read from the code host: the PR's files and
// shas, `.iris/review.yaml` and `AGENTS.md` from the PR's base branch (never its head: a pull
// request cannot change the rules it is reviewed by), the ignore globs applied, and the diff
// within its budget. The rules' skip decision is made here too; acting on it is the caller's.
import type { ForgeResult, PrRef } from '../delivery/pr-forge.js';
import type { PrDiffReader, ReviewFile } from './diff-reader.js';
import { budgetDiff, type BudgetedDiff } from './diff-budget.js';
import { matchesAny } from './glob.js';
import { DEFAULT_MAX_DIFF_TOKENS, REVIEW_RULES_PATH, parseReviewRules, type ReviewRules } from './rules.js';
import { reviewSkipReason, type PrFacts } from './skip.js';

export const AGENTS_MD_PATH = 'AGENTS.md';

export type ReviewInputs = {
  readonly rules: ReviewRules;
  /** What is wrong with `.iris/review.yaml` (the defaults were used): for the summary. */
  readonly rulesProblem?: string;
  /** A value of `.iris/review.yaml` held to the route's limit: for the summary. */
  readonly rulesNote?: string;
  /** The base branch's AGENTS.md: the repository's conventions. */
  readonly agentsMd?: string;
  /** The PR's files after `ignore`: the only ones the prompt and the tools know. */
  readonly files: readonly ReviewFile[];
  /** Files `ignore` took out. */
  readonly ignored: readonly string[];
  readonly diff: BudgetedDiff;
  /** Why the rules say this PR gets no review. */
  readonly skip?: string;
  readonly shas: { readonly base: string; readonly head: string; readonly start: string };
  /** The branch the rules were read from. */
  readonly baseRef: string;
};

export type GatherOptions = {
  /** The route's `review.max_diff_tokens`: the default, and the most the repository's file may ask for. */
  readonly routeMaxDiffTokens?: number;
  readonly signal?: AbortSignal;
};

/**
 * `facts` (draft, bot author, title) as the event's payload tells them; without them, what the code
 * host says of the PR is used.
 */
export async function gatherReviewInputs(reader: PrDiffReader, pr: PrRef, facts: PrFacts | undefined, options: GatherOptions = {}): Promise<ForgeResult<ReviewInputs>> {
  const call = options.signal ? { signal: options.signal } : {};
  const diff = await reader.prFiles(pr, call);
  if (!diff.ok) return diff;
  const { baseRef } = diff.value;
  // The branch, not the sha the PR was opened against: a fix to the rules on the base branch counts
  // for every open PR at its next review.
  const [rulesText, agentsMd] = await Promise.all([reader.readFile(pr, REVIEW_RULES_PATH, baseRef, call), reader.readFile(pr, AGENTS_MD_PATH, baseRef, call)]);
  if (!rulesText.ok) return rulesText;
  if (!agentsMd.ok) return agentsMd;
  const { rules, problem, note } = parseReviewRules(rulesText.value ?? undefined, options.routeMaxDiffTokens ?? DEFAULT_MAX_DIFF_TOKENS);
  // By the file's path on the new side (a removed file's old path).
  const files = diff.value.files.filter((file) => !matchesAny(rules.ignore, file.path));
  const ignored = diff.value.files.filter((file) => matchesAny(rules.ignore, file.path)).map((file) => file.path);
  const skip = reviewSkipReason(rules, facts ?? diff.value.facts);
  const agents = agentsMd.value?.trim();
  return {
    ok: true,
    value: {
      rules,
      ...(problem === undefined ? {} : { rulesProblem: problem }),
      ...(note === undefined ? {} : { rulesNote: note }),
      ...(agents ? { agentsMd: agents } : {}),
      files,
      ignored,
      diff: budgetDiff(files, rules.maxDiffTokens),
      ...(skip === undefined ? {} : { skip }),
      shas: { base: diff.value.baseSha, head: diff.value.headSha, start: diff.value.startSha },
      baseRef,
    },
  };
}
