// Which command a run asks for, from its arguments alone: the launcher picks the bundle by it
// (src/cli/launch.ts), before commander or any command is loaded.
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
