// `iris version`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import { printJson, writeStdout } from '../console.js';
import { VERSION } from '../../version.js';

export function registerVersion(program: Command): void {
  program
    .command('version')
    .description('print the version')
    .option('--json', 'print as JSON')
    .action((options: { json?: boolean }) => {
      if (options.json) printJson({ version: VERSION, node: process.versions.node });
      else writeStdout(`${VERSION}\n`);
    });

}
