// `iris auth [add|login|logout|remove]`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerAuth(program: Command, setExit: SetExitCode): void {
  const auth = program
    .command('auth')
    .description('show each provider in use: endpoint, auth mode, and where its key comes from (never the key); add / login / logout / remove an OAuth sign-in')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { auth } = await import('../commands/auth.js');
      await auth(options);
    })
    .exitOverride();
  auth
    .command('add')
    .description('store the client id registered for a provider\'s subscription sign-in (in $IRIS_HOME/auth.json)')
    .argument('<provider>', 'openrouter, openai or anthropic (not cloud-hosted or custom)')
    .requiredOption('--client-id <id>', 'the client id registered with the provider')
    .option('--issuer <url>', 'the authorization server (default: the provider\'s, where the catalog knows it)')
    .option('--scope <scope>', 'the scope to ask for (default: the provider\'s)')
    .option('--json', 'print the result as JSON')
    .action(async (provider: string, options: { clientId: string; issuer?: string; scope?: string; json?: boolean }) => {
      const { authAdd } = await import('../commands/auth.js');
      await authAdd(provider, options);
    });
  auth
    .command('login')
    .description('sign in with the stored client id: shows a code to approve in a browser, then stores the tokens')
    .argument('<provider>', 'a provider added with iris auth add')
    .action(async (provider: string) => {
      const { authLogin } = await import('../commands/auth.js');
      setExit(await authLogin(provider));
    });
  auth
    .command('logout')
    .description('remove the stored tokens of a provider (the client id is kept)')
    .argument('<provider>', 'the provider')
    .option('--json', 'print the result as JSON')
    .action(async (provider: string, options: { json?: boolean }) => {
      const { authLogout } = await import('../commands/auth.js');
      await authLogout(provider, options);
    });
  auth
    .command('remove')
    .description('remove a provider\'s entry (client id and tokens) from auth.json')
    .argument('<provider>', 'the provider')
    .option('--json', 'print the result as JSON')
    .action(async (provider: string, options: { json?: boolean }) => {
      const { authRemove } = await import('../commands/auth.js');
      await authRemove(provider, options);
    });

}
