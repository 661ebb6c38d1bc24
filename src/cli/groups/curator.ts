// `iris curator review`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';

export function registerCurator(program: Command): void {
  const curator = program.command('curator').description('the curator slot reviews the installed skills and their usage').exitOverride();
  curator
    .command('review')
    .description('propose to keep, archive, merge or rewrite each skill, from its usage; the report goes to $IRIS_HOME/curator/')
    .option('--days <n>', 'the usage window, in days', '30')
    .option('--apply', 'move the skills proposed for archive to skills/.archive/ (nothing is deleted)')
    .option('--json', 'print as JSON')
    .action(async (options: { days: string; apply?: boolean; json?: boolean }) => {
      const { curatorReview } = await import('../commands/curator.js');
      await curatorReview(options);
    });
}
