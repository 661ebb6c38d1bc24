// The `iris` command frame. Kept light on purpose: this module loads only commander and the
// groups' declarations (groups/*.ts, one file per command group); each command's code (and
// yaml, zod, pino…) is imported when that command runs, so `iris --version` and `iris --help`
// start in a few milliseconds. A new group: a file in groups/, and one line in GROUPS.
import { Command, CommanderError } from 'commander';
import { errorMessage } from '../domain/error-message.js';
import { VERSION } from '../version.js';
import type { SetExitCode } from './command-group.js';
import { debugEnabled, printError } from './console.js';
import { CliFailure, EXIT, exitCodeFor } from './exit-codes.js';
import { routeUsageErrors } from './usage-error.js';
import { registerVersion } from './groups/version.js';
import { registerConfig } from './groups/config.js';
import { registerStatus } from './groups/status.js';
import { registerUsage } from './groups/usage.js';
import { registerChat } from './groups/chat.js';
import { registerSessions } from './groups/sessions.js';
import { registerGateway } from './groups/gateway.js';
import { registerWebhook } from './groups/webhook.js';
import { registerPairing } from './groups/pairing.js';
import { registerSlack } from './groups/slack.js';
import { registerDashboard } from './groups/dashboard.js';
import { registerSetup } from './groups/setup.js';
import { registerAuth } from './groups/auth.js';
import { registerDoctor } from './groups/doctor.js';
import { registerModel } from './groups/model.js';
import { registerStore } from './groups/store.js';
import { registerMcp } from './groups/mcp.js';
import { registerKanban } from './groups/kanban.js';
import { registerCurator } from './groups/curator.js';
import { registerSkills } from './groups/skills.js';
import { registerProfile } from './groups/profile.js';
import { registerSend } from './groups/send.js';

/** The command groups, each under its top-level command, in the order `iris --help` lists them. */
const GROUPS: ReadonlyArray<readonly [string, (program: Command, setExit: SetExitCode) => void]> = [
  ['version', registerVersion],
  ['config', registerConfig],
  ['status', registerStatus],
  ['usage', registerUsage],
  ['chat', registerChat],
  ['sessions', registerSessions],
  ['gateway', registerGateway],
  ['webhook', registerWebhook],
  ['send', registerSend],
  ['pairing', registerPairing],
  ['slack', registerSlack],
  ['store', registerStore],
  ['dashboard', registerDashboard],
  ['setup', registerSetup],
  ['auth', registerAuth],
  ['doctor', registerDoctor],
  ['model', registerModel],
  ['mcp', registerMcp],
  ['kanban', registerKanban],
  ['curator', registerCurator],
  ['skills', registerSkills],
  ['profile', registerProfile],
];

/**
 * The command a run asks for: the first argument that is not a global option or its value. Only
 * that command's group is declared (commander builds every declared command, and start-up is
 * paid by every run); anything else — help, no command, a mistyped one — gets them all.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-p' || arg === '--profile') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** A command that decides its own exit code (a one-shot chat) sets it here. */
let commandExitCode: number = EXIT.ok;

function buildProgram(argv: readonly string[]): Command {
  const program = new Command('iris')
    .description('Iris: a self-hosted agent service with a main model and 11 auxiliary model slots.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('-p, --profile <name>', 'use the named profile (a separate home, see iris profile); also IRIS_PROFILE')
    .exitOverride();
  // One place decides the home for every command: the profile's, before the command runs.
  program.hook('preAction', async (_program, command) => {
    const { selectProfile, applyProfile, defaultProfile } = await import('../profiles/current.js');
    const selected = selectProfile(program.opts<{ profile?: string }>().profile, process.env);
    if (selected.ok) return applyProfile(selected.profile, process.env);
    // A stored default whose folder is gone must not lock out `iris profile use default`.
    if (selected.source === 'stored' && command.parent?.name() === 'profile') return applyProfile(defaultProfile(selected.baseDir), process.env);
    throw new CliFailure('usage', selected.message);
  });

  const word = commandWord(argv);
  const asked = GROUPS.find(([name]) => name === word);
  for (const [, register] of asked ? [asked] : GROUPS) register(program, (code) => (commandExitCode = code));
  routeUsageErrors(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram(argv);
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
