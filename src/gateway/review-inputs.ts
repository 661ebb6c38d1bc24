// Before a review's run (an automatic review or /review on a PR route): what Iris reads of the
// pull request itself (src/review/gather.ts: its files and diff, the base branch's
// .iris/review.yaml and AGENTS.md), so the model gets the diff in its prompt and the read-only
// pr_files / pr_file_diff tools, and needs no shell to see what changed. The repository's skip
// rules (drafts, bots, title keywords) stop automatic reviews only: /review is a maintainer's ask.
import type { Tool } from '../agent/tools/types.js';
import { gatherReviewInputs, type ReviewInputs } from '../review/gather.js';
import { prReviewTools } from '../review/tools.js';
import type { RouteSnapshot } from '../webhook/routes.js';
import type { PrForges } from './pr-forges.js';
import type { PrPlan } from './pr-plan.js';

export type ReviewPreparation =
  /** Not a review, or forges that cannot read (the run goes on as before). */
  | { readonly kind: 'none' }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'ready'; readonly inputs: ReviewInputs; readonly tools: readonly Tool[] };

export async function prepareReview(forges: PrForges, plan: PrPlan, route: Pick<RouteSnapshot, 'review'>, signal: AbortSignal): Promise<ReviewPreparation> {
  if (plan.kind !== 'run' || plan.deliverAs !== 'summary' || !forges.reads) return { kind: 'none' };
  const chosen = forges.reads(plan.pr.forge);
  if (!chosen.ok) return { kind: 'failed', reason: chosen.error };
  const budget = route.review?.max_diff_tokens;
  const gathered = await gatherReviewInputs(chosen.reader, { repo: plan.pr.repo, number: plan.pr.number }, undefined, { signal, ...(budget === undefined ? {} : { routeMaxDiffTokens: budget }) });
  if (!gathered.ok) return { kind: 'failed', reason: `could not read the pull request from the code host: ${gathered.message}` };
  const inputs = gathered.value;
  if (inputs.skip !== undefined && plan.prompt.route) return { kind: 'skip', reason: inputs.skip };
  return { kind: 'ready', inputs, tools: prReviewTools(inputs.files, inputs.rules.maxDiffTokens) };
}
