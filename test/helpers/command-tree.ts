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

/** At most this many `iris … --help` at once: the walk is ~100 processes, one after another too slow on a busy machine. */
const WALK_PARALLEL = 4;

/** Every command and group path under `path`, each with its own help text (in the order help lists them). */
export async function walkCommands(home: string, path: string[] = []): Promise<Map<string, string>> {
  const slots = limiter(WALK_PARALLEL);
  async function visit(at: string[]): Promise<Array<[string, string]>> {
    const help = await slots(() => runIris([...at, '--help'], { home }));
    expect(help.code, `iris ${at.join(' ')} --help`).toBe(0);
    const below = await Promise.all(subcommands(help.stdout).map((child) => visit([...at, child])));
    return [...(at.length > 0 ? [[at.join(' '), help.stdout] as [string, string]] : []), ...below.flat()];
  }
  return new Map(await visit(path));
}

/** Runs the work given to it at most `n` at a time. */
function limiter(n: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
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
