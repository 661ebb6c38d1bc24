// `iris pairing list|approve|revoke`: the declarations only; the code loads when a command runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerPairing(program: Command, setExit: SetExitCode): void {
  const pairing = program.command('pairing').description('who may talk to the bot on a chat platform: pending pairing codes and approved users').exitOverride();
  pairing
    .command('list')
    .description('the pending pairing codes and the approved users')
    .option('--platform <platform>', 'only this platform: telegram, discord, slack, signal or sms')
    .option('--json', 'print as JSON')
    .action(async (options: { platform?: string; json?: boolean }) => {
      const { pairingList } = await import('../commands/pairing.js');
      await pairingList(options);
    });
  pairing
    .command('approve')
    .description('approve the user who was sent this code (case does not matter); exit 1 when the code is unknown or expired')
    .argument('<platform>', 'telegram, discord, slack, signal or sms')
    .argument('<code>', 'the pairing code the user got')
    .option('--json', 'print the approved user as JSON')
    .action(async (platform: string, code: string, options: { json?: boolean }) => {
      const { pairingApprove } = await import('../commands/pairing.js');
      setExit(await pairingApprove(platform, code, options));
    });
  pairing
    .command('revoke')
    .description('take an approved user off the list; exit 1 when they were not approved')
    .argument('<platform>', 'telegram, discord, slack, signal or sms')
    .argument('<user>', "the user's id on that platform")
    .option('--json', 'print the result as JSON')
    .action(async (platform: string, user: string, options: { json?: boolean }) => {
      const { pairingRevoke } = await import('../commands/pairing.js');
      setExit(await pairingRevoke(platform, user, options));
    });
}
