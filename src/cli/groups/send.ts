// `iris send --to <platform>[:<chat>[:<thread>]] <text>`: the declaration only; the code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerSend(program: Command, setExit: SetExitCode): void {
  program
    .command('send')
    .description('send one message to a chat platform through the outbox (the home channel when no chat is given)')
    .requiredOption('--to <target>', '<platform>[:<chat_id>[:<thread_id>]], e.g. telegram:123456 or sms:+15551234567')
    .argument('<text...>', 'the message (Markdown; stripped to plain text for sms and signal)')
    .option('--wait <seconds>', 'with a gateway running: how long to wait for it to send', '10')
    .option('--json', 'print the result as JSON')
    .exitOverride()
    .action(async (words: string[], options: { to: string; wait: string; json?: boolean }) => {
      const { sendCommand } = await import('../commands/send.js');
      setExit(await sendCommand(words.join(' '), options));
    });
}
