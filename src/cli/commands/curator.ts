// `iris curator review [--days N] [--apply] [--json]`: the curator slot's proposals for the
// installed skills (keep, archive, merge, rewrite a description), printed and written to
// $IRIS_HOME/curator/<date>.md; with --apply, the skills proposed for archive move to
// skills/.archive/. A slot that fails, or answers malformed twice, is a refusal: exit 1, nothing
// moved, no report.
import { loadOAuthView } from '../../auth/view.js';
import { runCuratorReview } from '../../curator/run.js';
import { formatArchived } from '../../curator/report.js';
import { rotationOf } from '../../log/rotation.js';
import { createRoutingDeps } from '../../routing/runtime.js';
import { openStoreAt } from '../../store/open-store.js';
import { printData, printJson, printWarning } from '../console.js';
import { cliStoreTarget } from '../store-target.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure } from '../exit-codes.js';

export type CuratorReviewOptions = { days: string; apply?: boolean; json?: boolean };

const MAX_DAYS = 3650;

export function parseDays(text: string): number {
  const days = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_DAYS) {
    throw new CliFailure('usage', `--days must be a whole number of days from 1 to ${MAX_DAYS} (got "${text}")`);
  }
  return days;
}

export async function curatorReview(options: CuratorReviewOptions): Promise<void> {
  const days = parseDays(options.days);
  const paths = await openHome();
  const env = await openEnv(paths);
  const loaded = await openConfig(paths);
  const oauth = await loadOAuthView(paths);
  if (oauth.problem) printWarning(oauth.problem);
  const store = await openStoreAt(await cliStoreTarget(paths, { env, config: loaded.config }));
  try {
    const outcome = await runCuratorReview(
      {
        paths,
        env,
        oauth: oauth.view,
        config: loaded.config,
        store,
        routing: createRoutingDeps(paths, env, { rotation: rotationOf(loaded.config.logging) }),
        now: Date.now,
        usageSource: 'cli',
      },
      { days, apply: options.apply === true },
    );
    if (!outcome.ok) throw new CliFailure('io_error', outcome.error);
    if (options.json) {
      printJson({
        days,
        report: outcome.reportPath,
        skills: outcome.skills.map((skill) => ({ name: skill.name, loads: skill.loads, last_load_at: skill.lastLoadAt === null ? null : new Date(skill.lastLoadAt).toISOString() })),
        proposals: outcome.proposals,
        archived: outcome.archived,
      });
      return;
    }
    printData(outcome.report.trimEnd());
    printData(`report: ${outcome.reportPath}`);
    if (options.apply) printData(formatArchived(outcome.archived));
  } finally {
    await store.close();
  }
}
