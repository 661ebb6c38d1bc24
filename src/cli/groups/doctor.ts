// `iris doctor`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerDoctor(program: Command, setExit: SetExitCode): void {
  program
    .command('doctor')
    .description('check the home, config, credentials (with live probes), gh, the webhook port and the store; say how to fix each problem')
    .option('--offline', 'skip the live probes of models and identity tokens')
    .option('--identity-timeout <seconds>', 'how long the identity-token probe may take (default 10)')
    .option('--json', 'print as JSON')
    .action(async (options: { offline?: boolean; json?: boolean; identityTimeout?: string }) => {
      const { doctor } = await import('../commands/doctor.js');
      setExit(await doctor(options));
    });

}
