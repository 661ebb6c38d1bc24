// `iris store backup|status|migrate|copy`: the declarations only; a command's code loads when it runs.
import type { Command } from 'commander';
import type { SetExitCode } from '../command-group.js';

export function registerStore(program: Command, setExit: SetExitCode): void {
  const store = program
    .command('store')
    .description('the state store ($IRIS_HOME/state.db, or PostgreSQL with store.url): its schema, migrations, backups, and moving it to PostgreSQL')
    .exitOverride();
  store
    .command('status')
    .description('show the backend, where the store is (a PostgreSQL URL without its password), its schema version and the pending migrations; changes nothing')
    .option('--json', 'print the status as JSON')
    .action(async (options: { json?: boolean }) => {
      const { storeStatus } = await import('../commands/store.js');
      setExit(await storeStatus(options));
    });
  store
    .command('migrate')
    .description('apply the pending schema migrations now (every process also does at start); a no-op when there are none')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const { storeMigrate } = await import('../commands/store.js');
      setExit(await storeMigrate(options));
    });
  store
    .command('copy')
    .description('copy this home\'s state.db to PostgreSQL, keeping every id and time; refuses a target holding anything but an empty Iris schema')
    .requiredOption('--to <url>', 'the PostgreSQL database: postgres://user[:password]@host:5432/db')
    .option('--force', 'replace the Iris rows the target holds (never doubles them)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { to?: string; force?: boolean; json?: boolean }) => {
      const { storeCopy } = await import('../commands/store.js');
      setExit(await storeCopy(options));
    });
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
  store
    .command('prune')
    .description('remove what retention.* in config.yaml no longer keeps: old automation sessions, skill loads, curator reports; fold old usage into per-day totals')
    .option('--dry-run', 'list what would be removed, remove nothing')
    .option('--yes', 'do not ask (needed off a terminal)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { dryRun?: boolean; yes?: boolean; json?: boolean }) => {
      const { storePrune } = await import('../commands/store-prune.js');
      setExit(await storePrune(options));
    });
}
