// `iris store backup <file> [--force] [--json]`: the copy is made by store/backup.ts; this file
// maps its outcome to output and an exit code.
import { backupStore, type BackupResult } from '../../store/backup.js';
import { printData, printError, printJson } from '../console.js';
import { openHome } from '../context.js';
import { EXIT } from '../exit-codes.js';

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
