// `iris store backup <file> [--force] [--json]`: the copy is made by store/backup.ts; this file
// maps its outcome to output and an exit code.
import type { HomePaths } from '../../config/home.js';
import { backupStore, type BackupResult } from '../../store/backup.js';
import { copySqliteToPg, type CopyFailure, type CopyResult } from '../../store/copy/copy-to-pg.js';
import type { StoreTarget } from '../../store/open-store.js';
import { migrateStore, readStoreStatus, storeLocation, type StoreStatus } from '../store-admin.js';
import { printData, printError, printJson } from '../console.js';
import { openConfig, openEnv, openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { cliStoreTarget, storeFailure } from '../store-target.js';
import { formatTable } from '../table.js';

type Failure = Extract<BackupResult, { ok: false }>['code'];

/** Pointing the copy at the store itself is a mistake in the command line; the rest could not be done. */
const EXIT_BY_FAILURE: Readonly<Record<Failure, number>> = {
  same_file: EXIT.usage,
  no_source: EXIT.failure,
  exists: EXIT.failure,
  no_folder: EXIT.failure,
  failed: EXIT.failure,
};

export async function storeBackup(file: string, options: { force?: boolean; json?: boolean } = {}): Promise<number> {
  const paths = await openHome();
  const result = await backupStore(paths.statePath, file, { force: options.force === true });
  if (!result.ok) {
    printError(result.message);
    return EXIT_BY_FAILURE[result.code];
  }
  const { sessions, webhookEvents } = result.counts;
  if (options.json) printJson({ path: result.path, bytes: result.bytes, sessions, webhook_events: webhookEvents });
  else printData(`backed up ${paths.statePath} to ${result.path} (${result.bytes} bytes: ${sessions} session${sessions === 1 ? '' : 's'}, ${webhookEvents} webhook event${webhookEvents === 1 ? '' : 's'})`);
  return EXIT.ok;
}

// `iris store status|migrate|copy`: which store this home uses, its schema, and moving a SQLite
// home to PostgreSQL (cli/store-admin.ts, store/copy/). Neither prints a store password.

type StoreCommandOptions = { json?: boolean };

async function configuredTarget(): Promise<{ paths: HomePaths; target: StoreTarget }> {
  const paths = await openHome();
  const env = await openEnv(paths);
  const { config } = await openConfig(paths);
  return { paths, target: await cliStoreTarget(paths, { env, config }) };
}

function versionText(status: StoreStatus): string {
  if (status.version > status.known) return `${status.version} (written by a newer Iris; this Iris knows up to ${status.known})`;
  if (!status.exists) return `none yet (state.db is created on first use; this Iris knows ${status.known})`;
  if (status.version === 0) return `none yet (this Iris knows ${status.known})`;
  return `${status.version} (this Iris knows ${status.known})`;
}

export function storeStatusText(status: StoreStatus): string {
  const lines = [`backend: ${status.backend}`, `location: ${status.location}`, `schema version: ${versionText(status)}`];
  if (status.pending.length === 0) lines.push('pending migrations: none');
  else {
    lines.push(`pending migrations: ${status.pending.length} (applied by iris store migrate, or by the next process that opens the store)`);
    for (const m of status.pending) lines.push(`  ${m.version}  ${m.description}`);
  }
  return lines.join('\n');
}

/** Exit 0 when the store can be used by this Iris, 1 when it was written by a newer one or cannot be read. */
export async function storeStatus(options: StoreCommandOptions = {}): Promise<number> {
  const { target } = await configuredTarget();
  let status: StoreStatus;
  try {
    status = await readStoreStatus(target);
  } catch (err) {
    throw storeFailure(err);
  }
  if (options.json) {
    printJson({ backend: status.backend, location: status.location, exists: status.exists, schema_version: status.version, known_version: status.known, pending: status.pending });
  } else printData(storeStatusText(status));
  return status.version > status.known ? EXIT.failure : EXIT.ok;
}

export async function storeMigrate(options: StoreCommandOptions = {}): Promise<number> {
  const { target } = await configuredTarget();
  let result: { from: number; to: number };
  try {
    result = await migrateStore(target);
  } catch (err) {
    throw storeFailure(err);
  }
  const location = storeLocation(target);
  if (options.json) printJson({ backend: target.backend, location, from: result.from, to: result.to });
  else if (result.from === result.to) printData(`${location} is at schema version ${result.to} already; nothing to migrate`);
  else printData(`migrated ${location} from schema version ${result.from} to ${result.to}`);
  return EXIT.ok;
}

const EXIT_BY_COPY_FAILURE: Readonly<Record<CopyFailure, number>> = {
  bad_url: EXIT.usage,
  no_source: EXIT.failure,
  source: EXIT.failure,
  refused: EXIT.failure,
  unreachable: EXIT.failure,
  mismatch: EXIT.failure,
  failed: EXIT.failure,
};

export function storeCopyText(result: Extract<CopyResult, { ok: true }>): string {
  const rows = result.counts.map(([name, n]) => [name, String(n)]);
  return [
    `copied ${result.source} to ${result.target} (schema version ${result.migrated.to}${result.migrated.from === result.migrated.to ? '' : `, migrated from ${result.migrated.from}`})${result.replaced ? ', replacing the Iris rows that were there (--force)' : ''}:`,
    formatTable(['TABLE', 'ROWS'], rows, new Set([1])),
    'every table holds as many rows as in SQLite; state.db was left as it was',
  ].join('\n');
}

export async function storeCopy(options: StoreCommandOptions & { to?: string; force?: boolean }): Promise<number> {
  if (options.to === undefined || options.to.trim() === '') throw new CliFailure('usage', 'store copy needs --to postgres://user@host:5432/db');
  const paths = await openHome();
  const result = await copySqliteToPg(paths.statePath, options.to.trim(), { force: options.force === true });
  if (!result.ok) {
    printError(result.message);
    return EXIT_BY_COPY_FAILURE[result.code];
  }
  if (options.json) {
    printJson({ source: result.source, target: result.target, schema_version: result.migrated.to, replaced: result.replaced, rows: Object.fromEntries(result.counts) });
  } else printData(storeCopyText(result));
  return EXIT.ok;
}
