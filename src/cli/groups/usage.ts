// `iris usage`: the declarations only; a command's code loads when it runs.
import { Option, type Command } from 'commander';
import { USAGE_GROUPS } from '../../domain/usage-ledger.js';

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description('summarise the tokens and cost of model calls, by model, task, day or source')
    .option('--since <when>', 'only calls since a span ago (30m, 24h, 7d, 2w) or a date (2026-11-01)')
    .option('--until <when>', 'only calls before a span ago (7d) or a date (2026-11-08); with --since, a range')
    .addOption(new Option('--by <group>', 'group by model, task (slot), UTC day or source (cli, dashboard, webhook:<route>, platform:<name>)').choices([...USAGE_GROUPS]).default('model'))
    .option('--json', 'print the rows as JSON (as GET /api/usage answers)')
    .action(async (options: { since?: string; until?: string; by: string; json?: boolean }) => {
      const { usage } = await import('../commands/usage.js');
      await usage(options);
    });

}
