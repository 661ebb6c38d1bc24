// `iris webhook subscribe|list|remove|test|deliveries`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerWebhook(program: Command, setExit: SetExitCode): void {
  const webhook = program
    .command('webhook')
    .description('webhook routes: dynamic subscriptions, a signed test event, and recent deliveries')
    .exitOverride();
  webhook
    .command('subscribe')
    .description('add (or update) a dynamic webhook route; a running gateway serves it at once')
    .argument('<name>', 'route name: lowercase letters, digits, ., _ and -, starting with a letter or digit (at most 64)')
    .option('--events <list>', 'comma-separated event names to accept (default: all)')
    .option('--prompt <template>', 'prompt template; {field} and {nested.field} come from the payload (default: the payload as JSON)')
    .option('--deliver <target>', 'log, forge_comment, or a chat platform: telegram, discord, slack, signal, sms (docs/platforms.md)', 'log')
    .option('--deliver-extra <key=value...>', 'delivery settings such as repo={repository.full_name} pr_number={number}')
    .option('--skills <list>', 'comma-separated skill names; the first one installed is loaded')
    .option('--toolsets <list>', 'comma-separated toolsets a run gets (default: service-webhook)')
    .option('--secret <secret>', 'the shared secret (default: a random one, shown once)')
    .option('--sandbox <mode>', "bubblewrap or off: this route's runs in the sandbox or not, whatever tools.terminal.sandbox says")
    .option('--sandbox-network', "share the network inside this route's sandbox")
    .option('--no-sandbox-network', "no network inside this route's sandbox")
    .option('--sandbox-env <list>', "comma-separated environment variable names passed into this route's sandbox")
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: Record<string, unknown>) => {
      const { webhookSubscribe } = await import('../commands/webhook.js');
      await webhookSubscribe(name, options);
    });
  webhook
    .command('list')
    .description('list the webhook routes (config.yaml and subscriptions), never their secrets')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { webhookList } = await import('../commands/webhook.js');
      await webhookList(options);
    });
  webhook
    .command('remove')
    .description('remove a dynamic subscription')
    .argument('<name>', 'the subscription')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { webhookRemove } = await import('../commands/webhook.js');
      await webhookRemove(name, options);
    });
  webhook
    .command('test')
    .description('sign and post a test event to the running gateway for a subscription, and print the answer')
    .argument('<name>', 'the subscription (config.yaml routes cannot be tested this way)')
    .option('--payload <json>', "the payload, a JSON object (default: a realistic sample of the event: pull_request, issue_comment, push, GitLab's Merge Request Hook, …)")
    .option('--event <name>', "the event header (default: the subscription's first event, else test)")
    .option('--json', 'print as JSON')
    .action(async (name: string, options: { payload?: string; event?: string; json?: boolean }) => {
      const { webhookTest } = await import('../commands/webhook.js');
      setExit(await webhookTest(name, options));
    });
  webhook
    .command('deliveries')
    .description('recent webhook events and what became of them (accepted, running, done, delivered, failed), with their session and first answer line')
    .option('--route <name>', 'only this route')
    .option('--state <state>', 'only events in this state (accepted, running, done, delivering, delivered, failed, skipped)')
    .option('--limit <n>', 'how many, newest first', '20')
    .option('--show <id>', "one event in full: its answer and the delivery's outcome")
    .option('--json', 'print as JSON')
    .action(async (options: { route?: string; state?: string; limit?: string; show?: string; json?: boolean }) => {
      const { webhookDeliveries } = await import('../commands/webhook.js');
      await webhookDeliveries(options);
    });
}
