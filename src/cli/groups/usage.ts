// `iris usage`: the declarations only; a command's code loads when it runs.
import { Option, type Command } from 'commander';

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description('summarise the tokens and cost of model calls, by model or by task')
    .option('--since <when>', 'only calls since a span ago (30m, 24h, 7d, 2w) or a date (2026-11-01)')
    .addOption(new Option('--by <group>', 'group by model or by task').choices(['model', 'task']).default('model'))
    .option('--json', 'print the rows as JSON')
    .action(async (options: { since?: string; by: 'model' | 'task'; json?: boolean }) => {
      const { usage } = await import('../commands/usage.js');
      await usage(options);
    });

}
