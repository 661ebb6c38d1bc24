// `iris chat`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerChat(program: Command, setExit: SetExitCode): void {
  program
    .command('chat')
    .description('talk to the agent: an interactive session, or one prompt with -q')
    .option('-q, --query <prompt>', 'run one prompt, print only the final answer (tool progress on stderr; the session id last), and exit')
    .option('--json', 'with -q: print one JSON object (session_id, answer, provider, model, usage, exit) instead of the answer')
    .option('--model <name>', 'the main model for this run (a model id or an alias)')
    .option('--provider <provider>', 'the provider for this run')
    .option('--session <id-or-title>', 'resume a session: its id, a unique id prefix (4+ characters), or its title')
    .option('-c, --continue', 'resume the most recent CLI session')
    .option('--image <path-or-url>', 'attach an image (a file, an http(s) URL or a data: URL) to the first message; repeatable', (value: string, previous: string[] = []) => [...previous, value])
    .action(async (options: { query?: string; json?: boolean; model?: string; provider?: string; session?: string; continue?: boolean; image?: string[] }) => {
      const { chat } = await import('../commands/chat.js');
      setExit(await chat({
        ...(options.query !== undefined ? { q: options.query } : {}),
        ...(options.json ? { json: true } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.session !== undefined ? { session: options.session } : {}),
        ...(options.continue ? { continueLast: true } : {}),
        ...(options.image?.length ? { images: options.image } : {}),
      }));
    });

}
