// One curator review with its effects: the slot called over the config's routes (its usage
// recorded under the `curator` task), the report written, and with `apply` the skills proposed
// for archive moved. A failed review writes nothing and moves nothing.
import type { OAuthView } from '../auth/view.js';
import type { Env, HomePaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { skillsDir } from '../agent/tools/skills/skills.js';
import { callCounted } from '../agent/slot-usage.js';
import type { UsageSource } from '../domain/usage-ledger.js';
import { snapshotRoutes, type RoutingDeps } from '../routing/call-model.js';
import type { Store } from '../store/types.js';
import { archiveSkills, type Archived } from './archive.js';
import type { Proposal, SkillForReview } from './proposals.js';
import { formatReport, writeReport } from './report.js';
import { reportDataComment } from './report-data.js';
import { reviewSkills, type AskCurator } from './review.js';

export type CuratorRunDeps = {
  readonly paths: HomePaths;
  readonly env: Env;
  readonly oauth?: OAuthView;
  readonly config: Readonly<Config>;
  readonly store: Store;
  readonly routing: RoutingDeps;
  readonly now: () => number;
  /** Whose run the review is: `cli` (iris curator review) or `gateway` (the schedule). */
  readonly usageSource: UsageSource;
};

export type CuratorRunOptions = { readonly days: number; readonly apply: boolean };

export type CuratorRunOutcome =
  | {
      readonly ok: true;
      readonly report: string;
      readonly reportPath: string;
      readonly skills: readonly SkillForReview[];
      readonly proposals: readonly Proposal[];
      /** With `apply`: the skills moved to the archive; else empty. */
      readonly archived: readonly Archived[];
    }
  | { readonly ok: false; readonly code: 'slot_failed' | 'malformed'; readonly error: string };

export async function runCuratorReview(deps: CuratorRunDeps, options: CuratorRunOptions): Promise<CuratorRunOutcome> {
  const routes = snapshotRoutes(deps.config, deps.env, deps.oauth);
  const ask: AskCurator = async (system, messages, maxOutputTokens) => {
    const result = await callCounted('curator', { system, messages, maxOutputTokens }, routes, deps.routing, { source: deps.usageSource, record: (record) => deps.store.recordUsage(record) }, deps.now);
    return result.ok ? { ok: true, text: result.text } : { ok: false, error: result.error.message };
  };
  const at = deps.now();
  const dir = skillsDir(deps.paths);
  const review = await reviewSkills({ skillsDir: dir, skillLoads: deps.store.skillLoads, ask, days: options.days, now: at });
  if (!review.ok) return review;
  const facts = { at, days: options.days, skills: review.skills, proposals: review.proposals, invalid: review.invalid };
  const report = formatReport(facts);
  // The file also keeps the facts (a comment the Markdown hides), for the dashboard's Apply.
  const reportPath = await writeReport(deps.paths.dir, at, `${report}${reportDataComment(facts)}`);
  const archived = options.apply ? await archiveSkills(dir, review.proposals.filter((p) => p.action === 'archive').map((p) => p.skill)) : [];
  return { ok: true, report, reportPath, skills: review.skills, proposals: review.proposals, archived };
}
