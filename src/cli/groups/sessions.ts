// `iris sessions list|show|rename|delete|prune|export`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerSessions(program: Command, setExit: SetExitCode): void {
  const sessions = program
    .command('sessions')
    .description('find a conversation again: list, show, rename, delete, prune and export sessions')
    .exitOverride();
  sessions
    .command('list')
    .description('the sessions, most recently active first')
    .option('--limit <n>', 'how many', '20')
    .option('--source <source>', 'only from cli, webhook (every route), webhook:<route>, or a platform such as telegram')
    .option('--json', 'print as JSON')
    .action(async (options: { limit?: string; source?: string; json?: boolean }) => {
      const { sessionsList } = await import('../commands/sessions.js');
      await sessionsList(options);
    });
  sessions
    .command('show')
    .description('print a session\'s transcript (tool calls in short form)')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('--json', 'print the session and its full messages as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { sessionsShow } = await import('../commands/sessions.js');
      await sessionsShow(name, options);
    });
  sessions
    .command('rename')
    .description('give a session a new title')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .argument('<title>', 'the new title')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, title: string, options: { json?: boolean }) => {
      const { sessionsRename } = await import('../commands/sessions.js');
      await sessionsRename(name, title, options);
    });
  sessions
    .command('delete')
    .description('delete a session and its messages (asks first; its usage stays in iris usage)')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { yes?: boolean; json?: boolean }) => {
      const { sessionsDelete } = await import('../commands/sessions.js');
      setExit(await sessionsDelete(name, options));
    });
  sessions
    .command('prune')
    .description('delete the sessions last active longer ago than a duration (never a running one; asks first)')
    .option('--older-than <duration>', '<n>s|m|h|d|w, such as 90s, 30m, 12h, 30d or 2w; 0s: every session not running')
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print the result as JSON')
    .action(async (options: { olderThan?: string; yes?: boolean; json?: boolean }) => {
      const { sessionsPrune } = await import('../commands/sessions.js');
      setExit(await sessionsPrune(options));
    });
  sessions
    .command('export')
    .description('write a session to stdout as Markdown (default) or JSON')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('--format <format>', 'md or json', 'md')
    .action(async (name: string, options: { format?: string }) => {
      const { sessionsExport } = await import('../commands/sessions.js');
      await sessionsExport(name, options);
    });

}
