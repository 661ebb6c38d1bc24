// `iris mcp list|tools|add|remove|test`: the declarations only; a command's code (and the MCP SDK) loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerMcp(program: Command, setExit: SetExitCode): void {
  const mcp = program.command('mcp').description('MCP servers: their tools offered to the agent as mcp__<server>__<tool>').exitOverride();
  mcp
    .command('list')
    .description('the MCP servers of config.yaml (never their env or header values)')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { mcpList } = await import('../commands/mcp.js');
      await mcpList(options);
    });
  mcp
    .command('tools')
    .description('start the enabled servers (or the one named) and list their tools; exit 1 when a server fails')
    .argument('[server]', 'only this server (started even when disabled)')
    .option('--json', 'print as JSON')
    .action(async (server: string | undefined, options: { json?: boolean }) => {
      const { mcpTools } = await import('../commands/mcp.js');
      setExit(await mcpTools(server, options));
    });
  mcp
    .command('add')
    .description('add (or replace) a server: a command spoken to over stdio, or --url for streamable HTTP')
    .argument('<name>', 'server name: letters, digits, _ and -')
    .argument('[command...]', 'the command and its arguments (put -- before them)')
    .option('--url <url>', 'a streamable-HTTP endpoint instead of a command')
    .option('--header <name:value...>', 'HTTP headers (--url servers)')
    .option('--env <NAME=value...>', 'environment variables for the command')
    .option('--cwd <dir>', 'folder the command runs in')
    .option('--include <tools>', 'comma-separated tool names to offer (default: all)')
    .option('--exclude <tools>', 'comma-separated tool names never to offer')
    .option('--disabled', 'add it disabled (enabled: false)')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, command: string[], options: Record<string, unknown>) => {
      const { mcpAdd } = await import('../commands/mcp.js');
      await mcpAdd(name, { ...options, command });
    });
  mcp
    .command('remove')
    .description('remove a server from config.yaml')
    .argument('<name>', 'the server')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { mcpRemove } = await import('../commands/mcp.js');
      await mcpRemove(name, options);
    });
  mcp
    .command('test')
    .description('start a server and list its tools: exit 0 when healthy, 1 with the reason when not')
    .argument('<server>', 'the server')
    .option('--json', 'print as JSON')
    .action(async (server: string, options: { json?: boolean }) => {
      const { mcpTest } = await import('../commands/mcp.js');
      setExit(await mcpTest(server, options));
    });
}
