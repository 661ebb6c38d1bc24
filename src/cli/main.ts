// The `iris` command frame. Kept light on purpose: this module loads only commander and the
// groups' declarations (groups/*.ts, one file per command group); each command's code (and
// yaml, zod, pino…) is imported when that command runs, so `iris --version` and `iris --help`
// start in a few milliseconds. A new group: a file in groups/, and one line in GROUPS.
import { Command, CommanderError } from 'commander';
import { errorMessage } from '../domain/error-message.js';
import { VERSION } from '../version.js';
import { debugEnabled, printError } from './console.js';
import { CliFailure, EXIT, exitCodeFor } from './exit-codes.js';
import { routeUsageErrors } from './usage-error.js';
import type { CommandGroups } from './groups/all.js';
import { commandWord } from './command-word.js';

export { commandWord };

/** A command that decides its own exit code (a one-shot chat) sets it here. */
let commandExitCode: number = EXIT.ok;

function buildProgram(argv: readonly string[], groups: CommandGroups): Command {
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
  const asked = groups.find(([name]) => name === word);
  for (const [, register] of asked ? [asked] : groups) register(program, (code) => (commandExitCode = code));
  routeUsageErrors(program);
  return program;
}

/** The group named alone on the command line, when it has subcommands and no action of its own. */
function bareGroup(program: Command, argv: readonly string[]): Command | undefined {
  const word = commandWord(argv);
  if (word === undefined || argv.indexOf(word) !== argv.length - 1) return undefined;
  const command = program.commands.find((c) => c.name() === word);
  // commander keeps a command's action in a field of its own; a group like `iris auth` has one.
  const ownAction = (command as unknown as { _actionHandler?: unknown } | undefined)?._actionHandler;
  return command && command.commands.length > 0 && !ownAction ? command : undefined;
}

export async function main(argv: readonly string[], groups: CommandGroups): Promise<number> {
  const program = buildProgram(argv, groups);
  if (argv.length === 0) {
    program.outputHelp();
    return EXIT.ok;
  }
  // A group called without its subcommand (`iris kanban`) asked what it holds: its help on
  // stdout, exit 0, as `gh pr` does (commander would print it on stderr as an error).
  const group = bareGroup(program, argv);
  if (group) {
    group.outputHelp();
    return EXIT.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return commandExitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // `iris help …` asked for help (exit code 0); any other help commander shows on its own
      // (exit code 1) came with a usage error.
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
