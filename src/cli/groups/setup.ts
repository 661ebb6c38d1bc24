// `iris setup`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerSetup(program: Command, setExit: SetExitCode): void {
  program
    .command('setup')
    .description('first run: choose the provider, authenticate, pick the main model (every question has a flag)')
    .option('--provider <id>', 'openrouter, openai, anthropic, cloud-hosted or custom')
    .option('--model <id>', 'the main model (for cloud-hosted: the deployment name)')
    .option('--base-url <url>', 'the endpoint (required for cloud-hosted and custom)')
    .option('--api-mode <mode>', 'chat_completions, codex_responses or anthropic_messages (skips the cloud-hosted probes)')
    .option('--auth-mode <mode>', 'api_key or identity_token (cloud-hosted)')
    .option('--api-key-env <name>', 'read the key from this variable instead of the provider\'s own')
    .option('--api-key-stdin', 'read the API key from standard input and store it in $IRIS_HOME/.env')
    .option('--client-id <id>', 'identity mode: the client id of a user-assigned managed identity (stored as CLOUD_CLIENT_ID)')
    .option('--tenant-id <id>', 'identity mode: the tenant id (stored as CLOUD_TENANT_ID)')
    .option('--webhook', 'also enable the webhook gateway')
    .option('--webhook-port <port>', 'the webhook port (default 8644)')
    .option('--webhook-secret <secret>', 'the global webhook secret (default: a random one)')
    .option('-y, --yes', 'accept the defaults without asking; save even when the identity preflight fails')
    .option('--json', 'print the result as JSON')
    .action(async (options: Record<string, unknown>) => {
      const { setup } = await import('../commands/setup.js');
      setExit(await setup(options));
    });

}
