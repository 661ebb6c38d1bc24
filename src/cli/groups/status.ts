// `iris status`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show which model serves the main slot and each auxiliary slot, the credentials in use, and the gateway')
    .option('--deep', 'also show every slot\'s fallback chain, with the api mode and base URL each call would use')
    .option('--json', 'print as JSON')
    .action(async (options: { deep?: boolean; json?: boolean }) => {
      const { status } = await import('../commands/status.js');
      await status(options);
    });

}
