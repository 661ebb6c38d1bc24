// `iris dashboard`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerDashboard(program: Command, setExit: SetExitCode): void {
  const dashboard = program
    .command('dashboard')
    .description('serve the dashboard and its REST API (a new session token on every start; sign-in on a non-loopback address)')
    .option('--host <address>', 'the address to listen on; a non-loopback one needs a password or a trusted proxy', '127.0.0.1')
    .option('--port <port>', 'the port (0 picks a free one)', '9119')
    .option('--no-open', 'do not open a browser')
    .option('--allow-remote', 'no longer needed (a password or dashboard.trusted_proxy opens a non-loopback --host)')
    .action(async (options: { host: string; port: string; open: boolean; allowRemote?: boolean }) => {
      const { dashboard: serve } = await import('../commands/dashboard.js');
      setExit(await serve(options));
    });
  dashboard
    .command('password')
    .description('set the dashboard password (asked twice on a terminal), stored only as a scrypt hash in .env; it applies from the next start')
    .option('--stdin', 'read the password from standard input (one line)')
    .option('--clear', 'remove the password (a non-loopback --host then needs dashboard.trusted_proxy)')
    .action(async (options: { stdin?: boolean; clear?: boolean }) => {
      const { dashboardPassword } = await import('../commands/dashboard-password.js');
      setExit(await dashboardPassword(options));
    });
}
