// `iris dashboard`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerDashboard(program: Command, setExit: SetExitCode): void {
  program
    .command('dashboard')
    .description('serve the Models page and its REST API on this machine (a new session token on every start)')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--port <port>', 'the port (0 picks a free one)', '9119')
    .option('--no-open', 'do not open a browser')
    .option('--allow-remote', 'allow a non-loopback --host (prints a warning)')
    .action(async (options: { host: string; port: string; open: boolean; allowRemote?: boolean }) => {
      const { dashboard } = await import('../commands/dashboard.js');
      setExit(await dashboard(options));
    });

}
