// `iris store backup`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerStore(program: Command, setExit: SetExitCode): void {
  const store = program.command('store').description('the state database ($IRIS_HOME/state.db): back it up while the gateway runs').exitOverride();
  store
    .command('backup')
    .description('write a consistent copy of state.db to <file> (0600), safe while the gateway runs')
    .argument('<file>', 'where to write the copy (its folder must exist)')
    .option('--force', 'replace <file> if it exists')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: { force?: boolean; json?: boolean }) => {
      const { storeBackup } = await import('../commands/store.js');
      setExit(await storeBackup(file, options));
    });
}
