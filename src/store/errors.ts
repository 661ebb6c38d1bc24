// The store's expected failures. The Store interface returns plain values (a PostgreSQL store
// will implement the same methods), so a failure is thrown as a `StoreError` with a closed `code`
// and a one-line message that names the database file; callers at a boundary (the CLI, the
// dashboard API) map the code to an exit code or HTTP status in one table. Anything else that
// escapes (a TypeError) is a bug, not an expected failure.
import { errorMessage } from '../domain/error-message.js';

export type StoreErrorCode =
  /** Not an SQLite file, a damaged one, or an SQLite file holding tables that are not Iris's. */
  | 'corrupt'
  /** Written by a newer Iris (higher schema version): refused, left untouched. */
  | 'newer_schema'
  /** The file, its folder or the file system refuses writes. */
  | 'readonly'
  /** Another process held the write lock for longer than the busy timeout. */
  | 'busy'
  /** Messages or usage for a session that does not exist. */
  | 'not_found'
  /** createSession with an id that is taken. */
  | 'conflict'
  /** A value the store cannot keep as given (a message that is not JSON, a negative token count). */
  | 'invalid'
  | 'io';

export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** better-sqlite3's SqliteError carries SQLite's extended result code name (`SQLITE_BUSY_SNAPSHOT`). */
function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

function detailOf(err: unknown): string {
  const message = errorMessage(err);
  const errno = errnoCode(err);
  // Node's fs messages repeat the code ("EACCES: permission denied, open '…'"); keep one.
  return errno ? `${errno}: ${message.replace(/^E[A-Z]+: /, '')}` : message;
}

/**
 * Turns whatever a driver or file call threw into a StoreError naming `path`. A StoreError
 * passes through unchanged.
 */
export function toStoreError(err: unknown, path: string): StoreError {
  if (err instanceof StoreError) return err;
  const detail = detailOf(err);
  const sqlite = sqliteCode(err);
  const errno = errnoCode(err);
  const options = { cause: err };
  if (sqlite === 'SQLITE_NOTADB' || sqlite?.startsWith('SQLITE_CORRUPT')) {
    return new StoreError(
      'corrupt',
      `${path} is damaged or not an SQLite database (${detail}); move it aside and Iris starts a new one`,
      options,
    );
  }
  if (sqlite?.startsWith('SQLITE_READONLY') || sqlite === 'SQLITE_PERM' || errno === 'EROFS' || errno === 'EACCES' || errno === 'EPERM') {
    return new StoreError('readonly', `${path} cannot be written (${detail})`, options);
  }
  if (sqlite?.startsWith('SQLITE_BUSY') || sqlite?.startsWith('SQLITE_LOCKED')) {
    return new StoreError('busy', `${path} is locked by another process (${detail}); try again`, options);
  }
  if (sqlite === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new StoreError('not_found', `${path}: no such session (${detail})`, options);
  }
  return new StoreError('io', `cannot use ${path}: ${detail}`, options);
}
