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

/** The command groups, in the order `iris --help` lists them. */
const GROUPS: ReadonlyArray<(program: Command, setExit: SetExitCode) => void> = [
  registerVersion,
  registerConfig,
  registerStatus,
  registerUsage,
  registerChat,
  registerSessions,
  registerGateway,
  registerWebhook,
  registerStore,
  registerDashboard,
  registerSetup,
  registerAuth,
  registerDoctor,
  registerModel,
  registerMcp,
  registerKanban,
  registerCurator,
  registerSkills,
  registerProfile,
];

/** A command that decides its own exit code (a one-shot chat) sets it here. */
let commandExitCode: number = EXIT.ok;

function buildProgram(): Command {
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

  for (const register of GROUPS) register(program, (code) => (commandExitCode = code));
  routeUsageErrors(program);
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
