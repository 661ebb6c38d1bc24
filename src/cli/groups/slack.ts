// `iris slack manifest`: the declarations only; the code loads when a command runs.
import type { Command } from 'commander';

export function registerSlack(program: Command): void {
  const slack = program.command('slack').description('Slack helpers').exitOverride();
  slack
    .command('manifest')
    .description('print the Slack app manifest (Socket Mode, app_mention and message.im, scopes chat:write, app_mentions:read, im:history) to create the app from')
    .option('--json', 'print as JSON (YAML by default)')
    .action(async (options: { json?: boolean }) => {
      const { slackManifestCommand } = await import('../commands/slack.js');
      slackManifestCommand(options);
    });
}
