// `iris store prune [--dry-run] [--yes] [--json]`: what retention removes (DECISIONS "Retention"),
// on demand. It lists what would go first; on a terminal it asks, elsewhere it needs --yes;
// --dry-run never asks and removes nothing.
import type { RetentionCounts, RetentionCutoffs } from '../../domain/retention.js';
import { SESSION_KINDS } from '../../domain/retention.js';
import { pruneCountsJson, prunedAnything, pruneHome } from '../../retention/prune-home.js';
import { confirm } from '../confirm.js';
import { printData, printJson } from '../console.js';
import { openConfig, openHome } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withExistingStore } from '../open-store.js';

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function cutoffsJson(cutoffs: RetentionCutoffs): Record<string, unknown> {
  return {
    sessions_before: Object.fromEntries(SESSION_KINDS.map((kind) => [kind, iso(cutoffs.sessionsBefore[kind])])),
    skill_loads_before: iso(cutoffs.skillLoadsBefore),
    usage_detail_before: iso(cutoffs.usageDetailBefore),
    curator_reports_kept: cutoffs.curatorReportsKept ?? null,
  };
}

/** The lines of a plan or a result; `kept` says what a kind's 0 means. */
export function pruneLines(counts: RetentionCounts, cutoffs: RetentionCutoffs): string[] {
  const sessions = SESSION_KINDS.map((kind) => {
    const before = cutoffs.sessionsBefore[kind];
    return before === undefined ? `${kind}: kept` : `${kind}: ${counts.sessions[kind]} (last active before ${iso(before)})`;
  });
  return [
    `  sessions (with their messages): ${sessions.join(', ')}`,
    `  skill loads: ${cutoffs.skillLoadsBefore === undefined ? 'kept' : `${counts.skillLoads} (before ${iso(cutoffs.skillLoadsBefore)})`}`,
    `  usage detail: ${
      cutoffs.usageDetailBefore === undefined
        ? 'kept'
        : `${plural(counts.usageRowsFolded, 'row')} before ${iso(cutoffs.usageDetailBefore)?.slice(0, 10)} folded into ${plural(counts.usageDayRows, 'per-day total')} (iris usage shows the same figures)`
    }`,
    `  curator reports: ${cutoffs.curatorReportsKept === undefined ? 'kept' : `${counts.curatorReports} (keeping the newest ${cutoffs.curatorReportsKept})`}`,
  ];
}

export async function storePrune(options: { dryRun?: boolean; yes?: boolean; json?: boolean }): Promise<number> {
  const paths = await openHome();
  const { config } = await openConfig(paths);
  const settings = config.retention;
  const now = Date.now();
  return withExistingStore(
    paths,
    async (store) => {
      const plan = await pruneHome(store, paths.dir, settings, now, { dryRun: true });
      const output = (dryRun: boolean, counts: RetentionCounts) => {
        if (options.json) printJson({ dry_run: dryRun, cutoffs: cutoffsJson(plan.cutoffs), ...pruneCountsJson(counts) });
        else printData([dryRun ? 'would prune (retention.* in config.yaml; nothing removed):' : 'pruned:', ...pruneLines(counts, plan.cutoffs)].join('\n'));
      };
      if (options.dryRun || !prunedAnything(plan.counts)) {
        output(true, plan.counts);
        return EXIT.ok;
      }
      if (!options.yes) {
        process.stderr.write(`${['to prune (retention.* in config.yaml):', ...pruneLines(plan.counts, plan.cutoffs)].join('\n')}\n`);
        if (!(await confirm('prune these now?', 'iris store prune'))) {
          process.stderr.write('nothing removed\n');
          return EXIT.failure;
        }
      }
      const done = await pruneHome(store, paths.dir, settings, now, { dryRun: false });
      output(false, done.counts);
      return EXIT.ok;
    },
    () => {
      // No state.db yet: nothing in the store; the curator's files may still be there.
      if (options.json) printJson({ dry_run: true, store: null });
      else printData('no store yet (state.db is created on first use); nothing to prune');
      return EXIT.ok;
    },
  );
}
