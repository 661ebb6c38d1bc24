// How a usage error from commander reads: one line on stderr that keeps commander's "(Did you
// mean …?)" and points at the --help of the command that was being parsed.
import type { Command } from 'commander';

/** `error: unknown command 'stauts'\n(Did you mean status?)` → one line ending in `(see <path> --help)`. */
export function formatUsageError(text: string, commandPath: string): string {
  const [first = 'error', ...rest] = text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const suggestion = rest.find((line) => line.startsWith('(Did you mean'));
  return `iris: ${first}${suggestion ? ` ${suggestion}` : ''} (see ${commandPath} --help)\n`;
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Every command of the tree writes its usage errors through formatUsageError, naming itself, and
 * keeps options positional.
 */
export function routeUsageErrors(root: Command): void {
  const visit = (command: Command) => {
    const path = pathOf(command);
    command.showSuggestionAfterError(true).configureOutput({ outputError: (text, write) => write(formatUsageError(text, path)) });
    // An option after a subcommand belongs to it: `iris auth add … --json` is add's --json, not
    // the --json of `iris auth` (which lists the providers).
    command.enablePositionalOptions();
    command.commands.forEach(visit);
  };
  visit(root);
}
