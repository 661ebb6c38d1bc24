// The `iris` command frame. Kept light on purpose: this module loads only commander; each
// command's code (and yaml, zod, pino…) is imported when that command runs, so `iris --version`
// and `iris --help` start in a few milliseconds.
import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { debugEnabled, printError, printJson } from './console.js';
import { CliFailure, EXIT, exitCodeFor } from './exit-codes.js';
import { errorMessage } from '../domain/error-message.js';

/** A command that decides its own exit code (a one-shot chat) sets it here. */
let commandExitCode: number = EXIT.ok;

function buildProgram(): Command {
  const program = new Command('iris')
    .description('Iris: a self-hosted agent service with a main model and 11 auxiliary model slots.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(`iris: ${text.trim().split('\n')[0]} (see iris --help)\n`),
    });

  program
    .command('version')
    .description('print the version')
    .option('--json', 'print as JSON')
    .action((options: { json?: boolean }) => {
      if (options.json) printJson({ version: VERSION, node: process.versions.node });
      else process.stdout.write(`${VERSION}\n`);
    });

  const config = program
    .command('config')
    .description('show and change config.yaml and the secrets in .env')
    .exitOverride();
  config
    .command('show')
    .description('print the effective config (defaults filled in, secrets masked)')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { configShow } = await import('./commands/config.js');
      await configShow(options);
    });
  config
    .command('get')
    .description('print one value: a dotted config key, or an environment variable name (masked)')
    .argument('<key>', 'dotted key such as model.provider, or a name such as OPENROUTER_API_KEY')
    .option('--json', 'print as JSON')
    .action(async (key: string, options: { json?: boolean }) => {
      const { configGet } = await import('./commands/config.js');
      await configGet(key, options);
    });
  config
    .command('set')
    .description('set one scalar; keys naming secrets (*_API_KEY, *_TOKEN, *_SECRET) go to .env')
    .argument('<key>', 'dotted key such as model.provider, or a name such as OPENROUTER_API_KEY')
    .argument('<value>', 'true/false/yes/no/on/off become booleans, numbers become numbers')
    .addOption(new Option('--string', 'store the value as a string, without coercion'))
    .option('--json', 'print the result as JSON')
    .action(async (key: string, value: string, options: { json?: boolean; string?: boolean }) => {
      const { configSet } = await import('./commands/config.js');
      await configSet(key, value, options);
    });

  program
    .command('status')
    .description('show which model serves the main slot and each auxiliary slot, the credentials in use, and the gateway')
    .option('--deep', 'also show every slot\'s fallback chain, with the api mode and base URL each call would use')
    .option('--json', 'print as JSON')
    .action(async (options: { deep?: boolean; json?: boolean }) => {
      const { status } = await import('./commands/status.js');
      await status(options);
    });

  program
    .command('usage')
    .description('summarise the tokens and cost of model calls, by model or by task')
    .option('--since <when>', 'only calls since a span ago (30m, 24h, 7d, 2w) or a date (2026-11-01)')
    .addOption(new Option('--by <group>', 'group by model or by task').choices(['model', 'task']).default('model'))
    .option('--json', 'print the rows as JSON')
    .action(async (options: { since?: string; by: 'model' | 'task'; json?: boolean }) => {
      const { usage } = await import('./commands/usage.js');
      await usage(options);
    });

  program
    .command('chat')
    .description('talk to the agent: an interactive session, or one prompt with -q')
    .option('-q, --query <prompt>', 'run one prompt, print only the final answer (tool progress on stderr; the session id last), and exit')
    .option('--json', 'with -q: print one JSON object (session_id, answer, provider, model, usage, exit) instead of the answer')
    .option('--model <name>', 'the main model for this run (a model id or an alias)')
    .option('--provider <provider>', 'the provider for this run')
    .option('--session <id-or-title>', 'resume a session: its id, a unique id prefix (4+ characters), or its title')
    .option('-c, --continue', 'resume the most recent CLI session')
    .action(async (options: { query?: string; json?: boolean; model?: string; provider?: string; session?: string; continue?: boolean }) => {
      const { chat } = await import('./commands/chat.js');
      commandExitCode = await chat({
        ...(options.query !== undefined ? { q: options.query } : {}),
        ...(options.json ? { json: true } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.session !== undefined ? { session: options.session } : {}),
        ...(options.continue ? { continueLast: true } : {}),
      });
    });

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
      const { sessionsList } = await import('./commands/sessions.js');
      await sessionsList(options);
    });
  sessions
    .command('show')
    .description('print a session\'s transcript (tool calls in short form)')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('--json', 'print the session and its full messages as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const { sessionsShow } = await import('./commands/sessions.js');
      await sessionsShow(name, options);
    });
  sessions
    .command('rename')
    .description('give a session a new title')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .argument('<title>', 'the new title')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, title: string, options: { json?: boolean }) => {
      const { sessionsRename } = await import('./commands/sessions.js');
      await sessionsRename(name, title, options);
    });
  sessions
    .command('delete')
    .description('delete a session and its messages (asks first; its usage stays in iris usage)')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { yes?: boolean; json?: boolean }) => {
      const { sessionsDelete } = await import('./commands/sessions.js');
      commandExitCode = await sessionsDelete(name, options);
    });
  sessions
    .command('prune')
    .description('delete the sessions last active longer ago than a duration (never a running one; asks first)')
    .option('--older-than <duration>', '<n>s|m|h|d|w, such as 90s, 30m, 12h, 30d or 2w; 0s: every session not running')
    .option('-y, --yes', 'do not ask')
    .option('--json', 'print the result as JSON')
    .action(async (options: { olderThan?: string; yes?: boolean; json?: boolean }) => {
      const { sessionsPrune } = await import('./commands/sessions.js');
      commandExitCode = await sessionsPrune(options);
    });
  sessions
    .command('export')
    .description('write a session to stdout as Markdown (default) or JSON')
    .argument('<session>', 'an id, a unique id prefix (4+ characters), or a title')
    .option('--format <format>', 'md or json', 'md')
    .action(async (name: string, options: { format?: string }) => {
      const { sessionsExport } = await import('./commands/sessions.js');
      await sessionsExport(name, options);
    });

  const gateway = program
    .command('gateway')
    .description('the gateway that turns signed webhooks into agent runs: run it here, or start/stop it in the background')
    .action(async () => {
      const { gatewayRun } = await import('./commands/gateway.js');
      commandExitCode = await gatewayRun();
    })
    .exitOverride();
  gateway
    .command('run')
    .description('run the gateway in the foreground until Ctrl-C or SIGTERM (same as plain iris gateway)')
    .action(async () => {
      const { gatewayRun } = await import('./commands/gateway.js');
      commandExitCode = await gatewayRun();
    });
  gateway
    .command('start')
    .description('start the gateway in the background (pid in $IRIS_HOME/gateway.pid, output in logs/gateway.console.log)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayStart } = await import('./commands/gateway.js');
      commandExitCode = await gatewayStart(options);
    });
  gateway
    .command('stop')
    .description('stop the background gateway (runs in flight stop at a safe point; the inbox keeps the rest)')
    .action(async () => {
      const { gatewayStop } = await import('./commands/gateway.js');
      commandExitCode = await gatewayStop();
    });
  gateway
    .command('restart')
    .description('stop and start the background gateway, so it reads config.yaml again')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayRestart } = await import('./commands/gateway.js');
      commandExitCode = await gatewayRestart(options);
    });
  gateway
    .command('status')
    .description('is the gateway running and answering? (exit code 0 when running, 1 when not)')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { gatewayStatusCommand } = await import('./commands/gateway.js');
      commandExitCode = await gatewayStatusCommand(options);
    });

  const webhook = program
    .command('webhook')
    .description('webhook routes: dynamic subscriptions, a signed test event, and recent deliveries')
    .exitOverride();
  webhook
    .command('subscribe')
    .description('add (or update) a dynamic webhook route; a running gateway serves it at once')
    .argument('<name>', 'route name: lowercase letters, digits, _ and -')
    .option('--events <list>', 'comma-separated event names to accept (default: all)')
    .option('--prompt <template>', 'prompt template; {field} and {nested.field} come from the payload (default: the payload as JSON)')
    .option('--deliver <target>', 'log or forge_comment', 'log')
    .option('--deliver-extra <key=value...>', 'delivery settings such as repo={repository.full_name} pr_number={number}')
    .option('--skills <list>', 'comma-separated skill names; the first one installed is loaded')
    .option('--secret <secret>', 'the shared secret (default: a random one, shown once)')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: Record<string, unknown>) => {
      const { webhookSubscribe } = await import('./commands/webhook.js');
      await webhookSubscribe(name, options);
    });
  webhook
    .command('list')
    .description('list the webhook routes (config.yaml and subscriptions), never their secrets')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { webhookList } = await import('./commands/webhook.js');
      await webhookList(options);
    });
  webhook
    .command('remove')
    .description('remove a dynamic subscription')
    .argument('<name>', 'the subscription')
    .action(async (name: string) => {
      const { webhookRemove } = await import('./commands/webhook.js');
      await webhookRemove(name);
    });
  webhook
    .command('test')
    .description('sign and post a test event to the running gateway for a subscription, and print the answer')
    .argument('<name>', 'the subscription (config.yaml routes cannot be tested this way)')
    .option('--payload <json>', 'the payload, a JSON object')
    .option('--event <name>', "the event header (default: the subscription's first event, else test)")
    .option('--json', 'print as JSON')
    .action(async (name: string, options: { payload?: string; event?: string; json?: boolean }) => {
      const { webhookTest } = await import('./commands/webhook.js');
      commandExitCode = await webhookTest(name, options);
    });
  webhook
    .command('deliveries')
    .description('recent webhook events and what became of them (accepted, running, done, delivered, failed)')
    .option('--route <name>', 'only this route')
    .option('--limit <n>', 'how many, newest first', '20')
    .option('--json', 'print as JSON')
    .action(async (options: { route?: string; limit?: string; json?: boolean }) => {
      const { webhookDeliveries } = await import('./commands/webhook.js');
      await webhookDeliveries(options);
    });

  program
    .command('dashboard')
    .description('serve the Models page and its REST API on this machine (a new session token on every start)')
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option('--port <port>', 'the port (0 picks a free one)', '9119')
    .option('--no-open', 'do not open a browser')
    .option('--allow-remote', 'allow a non-loopback --host (prints a warning)')
    .action(async (options: { host: string; port: string; open: boolean; allowRemote?: boolean }) => {
      const { dashboard } = await import('./commands/dashboard.js');
      commandExitCode = await dashboard(options);
    });

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
      const { setup } = await import('./commands/setup.js');
      commandExitCode = await setup(options);
    });

  const auth = program
    .command('auth')
    .description('show each provider in use: endpoint, auth mode, and where its key comes from (never the key); add / login / logout / remove an OAuth sign-in')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { auth } = await import('./commands/auth.js');
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
    .action(async (provider: string, options: { clientId: string; issuer?: string; scope?: string }) => {
      const { authAdd } = await import('./commands/auth.js');
      await authAdd(provider, options);
    });
  auth
    .command('login')
    .description('sign in with the stored client id: shows a code to approve in a browser, then stores the tokens')
    .argument('<provider>', 'a provider added with iris auth add')
    .action(async (provider: string) => {
      const { authLogin } = await import('./commands/auth.js');
      commandExitCode = await authLogin(provider);
    });
  auth
    .command('logout')
    .description('remove the stored tokens of a provider (the client id is kept)')
    .argument('<provider>', 'the provider')
    .action(async (provider: string) => {
      const { authLogout } = await import('./commands/auth.js');
      await authLogout(provider);
    });
  auth
    .command('remove')
    .description('remove a provider\'s entry (client id and tokens) from auth.json')
    .argument('<provider>', 'the provider')
    .action(async (provider: string) => {
      const { authRemove } = await import('./commands/auth.js');
      await authRemove(provider);
    });

  program
    .command('doctor')
    .description('check the home, config, credentials (with live probes), gh, the webhook port and the store; say how to fix each problem')
    .option('--offline', 'skip the live probes of models and identity tokens')
    .option('--json', 'print as JSON')
    .action(async (options: { offline?: boolean; json?: boolean }) => {
      const { doctor } = await import('./commands/doctor.js');
      commandExitCode = await doctor(options);
    });

  const model = program
    .command('model')
    .description('assign models: plain `iris model` is the interactive picker; set / aux set / aux reset for scripts')
    .addHelpText(
      'after',
      '\nPlain `iris model` (on a terminal) walks through provider, authentication and model.\n' +
        'Changes apply to new sessions.',
    )
    .action(async () => {
      const { modelPicker } = await import('./commands/setup.js');
      commandExitCode = await modelPicker();
    })
    .exitOverride();
  model
    .command('set')
    .description('set the main model (model.provider and model.default)')
    .argument('<provider>', 'a provider id: openrouter, openai, anthropic, cloud-hosted, custom')
    .argument('<model>', 'a model id (for cloud-hosted: the deployment name)')
    .option('--json', 'print the change as JSON')
    .action(async (provider: string, modelId: string, options: { json?: boolean }) => {
      const { modelSet } = await import('./commands/model.js');
      await modelSet(provider, modelId, options);
    });
  const aux = model
    .command('aux')
    .description('assign the auxiliary slots (vision, compression, title_generation, …)')
    .exitOverride();
  aux
    .command('set')
    .description('point one auxiliary slot, or all 11, at a provider and model')
    .argument('<task>', 'a task id such as vision or title_generation, or all')
    .argument('<provider>', 'a provider id, or auto (the main model\'s provider)')
    .argument('<model>', "a model id; '' for the provider's default model")
    .option('--json', 'print the change as JSON')
    .action(async (task: string, provider: string, modelId: string, options: { json?: boolean }) => {
      const { modelAuxSet } = await import('./commands/model.js');
      await modelAuxSet(task, provider, modelId, options);
    });
  aux
    .command('reset')
    .description('put all 11 auxiliary slots back on auto (timeouts and other settings are kept)')
    .option('--json', 'print the change as JSON')
    .action(async (options: { json?: boolean }) => {
      const { modelAuxReset } = await import('./commands/model.js');
      await modelAuxReset(options);
    });
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return commandExitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // `iris help …` asked for help (exit code 0); a group called without its subcommand got
      // help on stderr instead (exit code 1 from commander): a usage error.
      const benign = ['commander.helpDisplayed', 'commander.version'];
      return benign.includes(err.code) || (err.code === 'commander.help' && err.exitCode === 0) ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliFailure) {
      printError(err.message);
      return exitCodeFor(err.code);
    }
    printError(errorMessage(err));
    if (debugEnabled() && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return EXIT.failure;
  }
}
