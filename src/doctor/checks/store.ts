// state.db: absent is fine (it is created on first use); present, it must open and carry a schema
// version this Iris knows. Pure: what the read-only open found comes in as a value.
import type { StoreErrorCode } from '../../store/errors.js';
import { fail, ok, shellWord, warn, type CheckResult } from '../types.js';

/** How the file's bytes are used: its size, the WAL beside it, and the free pages inside it. */
export type StoreSpace = { readonly fileBytes: number; readonly walBytes: number; readonly freeBytes: number };

export type StoreFacts =
  | { readonly kind: 'absent'; readonly path: string }
  | { readonly kind: 'opened'; readonly path: string; readonly version: number; readonly space?: StoreSpace }
  | { readonly kind: 'error'; readonly path: string; readonly code: StoreErrorCode; readonly message: string }
  // PostgreSQL (store.url / IRIS_STORE_URL): `location` is the URL without its password.
  | { readonly kind: 'pg_opened'; readonly location: string; readonly version: number }
  | { readonly kind: 'pg_error'; readonly location: string; readonly code: StoreErrorCode; readonly message: string };

const ID = 'store';

function errorFix(code: StoreErrorCode, path: string): string {
  switch (code) {
    case 'corrupt':
      return `move it aside (mv ${shellWord(path)} ${shellWord(`${path}.broken`)}); Iris starts a new one`;
    case 'newer_schema':
      return 'upgrade Iris (the file was not changed)';
    case 'busy':
      return 'another process holds it locked: try again in a moment';
    case 'readonly':
      return `make it readable and writable by you: chmod 600 ${shellWord(path)}`;
    default:
      return `check ${shellWord(path)} and the disk it is on`;
  }
}

function pgErrorFix(code: StoreErrorCode): string {
  switch (code) {
    case 'corrupt':
      return 'give Iris a database (or schema) of its own in store.url';
    case 'newer_schema':
      return 'upgrade Iris (nothing was changed)';
    case 'busy':
      return 'the database is busy: try again in a moment';
    default:
      return 'start PostgreSQL, or correct store.url in config.yaml (IRIS_STORE_URL wins over it)';
  }
}

/** `knownVersion`: the schema version this Iris knows for the backend the facts are about. */
export function checkStore(facts: StoreFacts, knownVersion: number): CheckResult {
  switch (facts.kind) {
    case 'pg_opened':
      if (facts.version > knownVersion) {
        return fail(ID, ID, `PostgreSQL at ${facts.location} has schema version ${facts.version}; this Iris knows up to ${knownVersion}`, pgErrorFix('newer_schema'));
      }
      if (facts.version === 0) return ok(ID, ID, `PostgreSQL at ${facts.location} answers; no Iris schema yet (created on first use, or iris store migrate)`);
      return facts.version === knownVersion
        ? ok(ID, ID, `PostgreSQL at ${facts.location} answers, schema version ${facts.version} (current)`)
        : ok(ID, ID, `PostgreSQL at ${facts.location} answers, schema version ${facts.version} (brought to ${knownVersion} on next use, or iris store migrate)`);
    case 'pg_error':
      return facts.code === 'busy' ? warn(ID, ID, facts.message, pgErrorFix(facts.code)) : fail(ID, ID, facts.message, pgErrorFix(facts.code));
    case 'absent':
      return ok(ID, ID, 'no state.db yet (created on first use)');
    case 'opened':
      if (facts.version > knownVersion) {
        return fail(ID, ID, `state.db has schema version ${facts.version}; this Iris knows up to ${knownVersion}`, errorFix('newer_schema', facts.path));
      }
      return facts.version === knownVersion
        ? ok(ID, ID, `state.db opens, schema version ${facts.version} (current)`)
        : ok(ID, ID, `state.db opens, schema version ${facts.version} (brought to ${knownVersion} on next use)`);
    case 'error':
      return facts.code === 'busy'
        ? warn(ID, ID, facts.message, errorFix(facts.code, facts.path))
        : fail(ID, ID, facts.message, errorFix(facts.code, facts.path));
  }
}

/** The gateway's checkpoints keep the WAL under this (journal_size_limit); more means they could not run. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
/** Free space that pruning explains: reused by new events, and not worth a word below this. */
const FREE_WORTH_A_WORD_BYTES = 64 * 1024 * 1024;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

/**
 * Whether state.db is larger than what it holds explains: a WAL that outgrew its limit (no
 * checkpoint could finish: a reader held it, or a gateway of an older Iris), or a file that is
 * mostly free pages (a burst of events since pruned: the pages are reused, the disk is not given
 * back). Undefined when there is nothing to say.
 */
export function checkStoreSpace(facts: StoreFacts): CheckResult | undefined {
  if (facts.kind !== 'opened' || !facts.space) return undefined;
  const { fileBytes, walBytes, freeBytes } = facts.space;
  const id = 'store:size';
  const name = 'store size';
  if (walBytes > WAL_LIMIT_BYTES) {
    return warn(id, name, `${facts.path}-wal is ${mb(walBytes)}, over the ${mb(WAL_LIMIT_BYTES)} the gateway keeps it under`, 'restart the gateway (iris gateway restart): its checkpoint writes the WAL into state.db and cuts the file back');
  }
  if (freeBytes > FREE_WORTH_A_WORD_BYTES && freeBytes > fileBytes / 2) {
    return warn(
      id,
      name,
      `${mb(freeBytes)} of state.db's ${mb(fileBytes)} is free space left by pruned events (new events reuse it)`,
      `to give it back to the disk, stop the gateway and run: sqlite3 ${shellWord(facts.path)} VACUUM`,
    );
  }
  return undefined;
}
