// The commands `iris --help` reaches, walked recursively, and docs/cli.md's command table: what
// the --json walk (test/e2e/json-everywhere.test.ts) and the docs-drift test read.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT, runIris } from './iris.js';

/** The subcommand names in a help text's Commands section (not `help`). */
export function subcommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

/** Every command and group path under `path`, each with its own help text. */
export async function walkCommands(home: string, path: string[] = []): Promise<Map<string, string>> {
  const help = await runIris([...path, '--help'], { home });
  expect(help.code, `iris ${path.join(' ')} --help`).toBe(0);
  const found = new Map<string, string>();
  const children = subcommands(help.stdout);
  if (path.length > 0) found.set(path.join(' '), help.stdout);
  for (const child of children) for (const [name, text] of await walkCommands(home, [...path, child])) found.set(name, text);
  return found;
}

export type DocumentedCommand = { readonly command: string; readonly row: string };

/** docs/cli.md's command table: each `iris …` code span of a row's first cell, with the row. */
export async function documentedCommands(): Promise<DocumentedCommand[]> {
  const docs = await readFile(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
  return docs
    .split('\n')
    .filter((line) => line.startsWith('| `iris '))
    .flatMap((row) => {
      const cell = (row.split(/(?<!\\)\|/)[1] ?? '').replace(/\\\|/g, '|');
      return [...cell.matchAll(/`(iris [^`]*)`/g)].map((match) => ({ command: match[1] ?? '', row: cell }));
    });
}

/** The rows documenting `path` itself: a span `iris <path> …` whose next word is no further subcommand. */
export function rowsFor(documented: readonly DocumentedCommand[], path: string): DocumentedCommand[] {
  const words = path.split(' ');
  return documented.filter(({ command }) => {
    const tokens = command.split(/\s+/).slice(1);
    const matches = words.every((word, i) => (tokens[i] ?? '').replace(/[[\]]/g, '').split('|').includes(word));
    return matches && !/^[a-z]/.test(tokens[words.length] ?? '');
  });
}
