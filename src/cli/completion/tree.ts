// What shell completion knows of the CLI: each command path with its subcommands, its flags (and
// which take a value), and where a value comes from (a fixed list, or a source the shell script
// asks for: config keys, provider ids, slots, routes, platforms). Read from commander's own
// declarations, so a new command or flag completes without a change here.
import type { Command } from 'commander';

/** Where a completed value comes from: a named source of the script (words.ts), or fixed words. */
export type ValueSource = { readonly source: string } | { readonly words: readonly string[] };

export type CompletionNode = {
  /** `iris`, `iris config`, `iris model aux` … */
  readonly path: string;
  readonly subcommands: readonly string[];
  readonly flags: readonly string[];
  /** The flags that take a value (their next word is not a command word). */
  readonly valued: readonly string[];
  /** Value sources by `#<n>` (the n-th argument) or by flag (`--route`). */
  readonly values: Readonly<Record<string, ValueSource>>;
};

/** Arguments and flags whose values have a source, by command path (`*`: every command). */
const ARGUMENT_SOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'iris config get': { '#0': 'config_keys' },
  'iris config set': { '#0': 'config_keys' },
  'iris model set': { '#0': 'providers' },
  'iris model aux set': { '#0': 'slots', '#1': 'providers' },
  'iris auth add': { '#0': 'providers' },
  'iris auth login': { '#0': 'providers' },
  'iris auth logout': { '#0': 'providers' },
  'iris auth remove': { '#0': 'providers' },
  'iris webhook test': { '#0': 'routes' },
  'iris webhook remove': { '#0': 'routes' },
  'iris pairing approve': { '#0': 'platforms' },
  'iris pairing revoke': { '#0': 'platforms' },
  'iris logs': { '#0': 'logs' },
  'iris completion': { '#0': 'shells' },
  '*': { '--route': 'routes', '--platform': 'platforms', '--to': 'platforms', '--provider': 'providers' },
};

function nodeOf(command: Command, path: string): CompletionNode {
  const flags: string[] = [];
  const valued: string[] = [];
  const values: Record<string, ValueSource> = {};
  for (const option of command.options) {
    const names = [option.long, option.short].filter((name): name is string => typeof name === 'string');
    flags.push(...names);
    if (option.required || option.optional) valued.push(...names);
    for (const name of names) {
      const source = ARGUMENT_SOURCES['*']?.[name];
      if (option.argChoices) values[name] = { words: option.argChoices };
      else if (source && (option.required || option.optional)) values[name] = { source };
    }
  }
  for (const [at, source] of Object.entries(ARGUMENT_SOURCES[path] ?? {})) values[at] = { source };
  flags.push('--help');
  return { path, subcommands: command.commands.map((c) => c.name()).filter((name) => name !== 'help'), flags, valued, values };
}

/** Every command path under `root`, depth first. */
export function completionTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    nodes.push(nodeOf(command, path));
    for (const child of command.commands) if (child.name() !== 'help') visit(child, `${path} ${child.name()}`);
  };
  visit(root, 'iris');
  return nodes;
}
