// `iris logs`: the declaration only; the code loads when it runs.
import { Option, type Command } from 'commander';

export function registerLogs(program: Command): void {
  program
    .command('logs')
    .description('the gateway, agent and audit logs as readable lines (time, level, what, key fields), secrets redacted')
    .argument('[log]', 'gateway, agent or audit (default: all three, in time order)')
    .option('-f, --follow', 'keep printing new lines as they are written (Ctrl-C stops)')
    .addOption(new Option('--level <level>', 'only lines at this level or above').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal']))
    .option('--route <name>', 'only lines about this webhook route')
    .option('--platform <name>', 'only lines about this chat platform')
    .option('--since <when>', 'only lines since a span ago (30m, 1h, 7d) or a date (2026-11-01)')
    .option('-n, --lines <n>', 'the last n matching lines (default 50; all with --since)')
    .option('--json', 'print the entries as JSON: an array, or one object a line with -f')
    .action(async (log: string | undefined, options: { follow?: boolean; level?: string; route?: string; platform?: string; since?: string; lines?: string; json?: boolean }) => {
      const { logs } = await import('../commands/logs.js');
      await logs(log, options);
    });
}
