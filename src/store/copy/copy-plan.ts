// `iris store copy`'s decisions, with no I/O: which tables move and in what order, whether the
// target may be written, and how rows are cut into INSERT statements.
//
// PostgreSQL's schema versions 1 to 7 have exactly SQLite's tables and columns
// (pg/pg-migrations.ts), so a row moves as it is: every id and time kept.

export type CopyTable = {
  readonly name: string;
  /** SQLite's ORDER BY: parents before children (kanban ids ascending), rows in their order. */
  readonly orderBy: string;
  /** An `id` identity column whose sequence must be set past the copied ids. */
  readonly identity: boolean;
};

/** Every table of SQLite's schema (version 7) but schema_version, sessions before what names them. */
export const COPY_TABLES: readonly CopyTable[] = [
  { name: 'sessions', orderBy: 'created_at, id', identity: false },
  { name: 'messages', orderBy: 'session_id, seq', identity: false },
  { name: 'usage', orderBy: 'id', identity: true },
  { name: 'webhook_events', orderBy: 'id', identity: true },
  { name: 'webhook_dedup', orderBy: 'route, delivery_id', identity: false },
  { name: 'kanban_tasks', orderBy: 'id', identity: true },
  { name: 'skill_loads', orderBy: 'id', identity: true },
  { name: 'platform_inbound', orderBy: 'id', identity: true },
  { name: 'platform_outbox', orderBy: 'id', identity: true },
  { name: 'platform_sessions', orderBy: 'session_key', identity: false },
  { name: 'platform_pairing', orderBy: 'platform, code', identity: false },
  { name: 'platform_cursors', orderBy: 'platform', identity: false },
  { name: 'platform_approved_users', orderBy: 'platform, user_id', identity: false },
  { name: 'pr_threads', orderBy: 'route, pr_key', identity: false },
  { name: 'pr_findings', orderBy: 'route, pr_key, fingerprint', identity: false },
  { name: 'pr_review_plans', orderBy: 'event_id', identity: false },
];

/** Iris's tables in PostgreSQL that hold rows: the copied ones and the shared rate-limit window. */
export const PG_DATA_TABLES: readonly string[] = [...COPY_TABLES.map((t) => t.name), 'rate_limit_buckets'];

/** What the target schema holds, read before anything is written. */
export type TargetFacts = {
  /** Every table in the target schema. */
  readonly tables: readonly string[];
  /** The Iris schema version found (0 when there is no schema_version table). */
  readonly version: number;
  /** Rows in each of Iris's data tables that exist there. */
  readonly rows: Readonly<Record<string, number>>;
};

export type TargetDecision =
  | { readonly ok: true; readonly replace: boolean }
  | { readonly ok: false; readonly code: 'foreign' | 'not_empty' | 'newer_schema'; readonly message: string };

/**
 * Whether the copy may write the target: an empty schema, or Iris's schema with no rows, always;
 * Iris's rows or another program's tables beside Iris's only with `force` (Iris's rows are then
 * replaced, the other tables left alone). Tables of another program without Iris's schema, or a
 * schema newer than this Iris, are refused even with `force`: Iris's schema cannot go there.
 */
export function decideTarget(facts: TargetFacts, options: { readonly force: boolean; readonly knownVersion: number }, where: string): TargetDecision {
  const iris = new Set<string>([...PG_DATA_TABLES, 'schema_version']);
  const foreign = facts.tables.filter((name) => !iris.has(name));
  if (facts.version > options.knownVersion) {
    return { ok: false, code: 'newer_schema', message: `${where} was written by a newer Iris (schema version ${facts.version}; this version knows up to ${options.knownVersion}); nothing was copied` };
  }
  if (!facts.tables.includes('schema_version') && facts.tables.length > 0) {
    return { ok: false, code: 'foreign', message: `${where} holds tables of another program (${facts.tables.join(', ')}) and no Iris schema; give Iris a database (or schema) of its own; nothing was copied` };
  }
  const withRows = Object.entries(facts.rows).filter(([, n]) => n > 0);
  if (options.force) return { ok: true, replace: withRows.length > 0 };
  if (foreign.length > 0) {
    return { ok: false, code: 'foreign', message: `${where} holds tables that are not Iris's (${foreign.join(', ')}); give Iris a database (or schema) of its own, or pass --force to copy beside them; nothing was copied` };
  }
  if (withRows.length > 0) {
    const listed = withRows.map(([name, n]) => `${name}: ${n}`).join(', ');
    return { ok: false, code: 'not_empty', message: `${where} already holds Iris rows (${listed}); pass --force to replace them; nothing was copied` };
  }
  return { ok: true, replace: false };
}

/** PostgreSQL's limit on the parameters of one statement. */
export const MAX_PARAMETERS = 65_535;
/** Rows in one INSERT at most, whatever the column count (bounds one statement's size). */
export const MAX_BATCH_ROWS = 500;

/** How many rows of `columns` columns one INSERT carries. */
export function batchRows(columns: number, maxRows: number = MAX_BATCH_ROWS): number {
  if (!Number.isInteger(columns) || columns < 1) throw new RangeError(`a table has at least one column (got ${columns})`);
  return Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMETERS / columns)));
}

/** `INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)` for `rows` rows. Names come from the schema, never from input. */
export function insertStatement(table: string, columns: readonly string[], rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const base = r * columns.length;
    tuples.push(`(${columns.map((_, c) => `$${base + c + 1}`).join(', ')})`);
  }
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/** The tables whose copied count differs from the source's; empty when every table matches. */
export function countMismatches(source: Readonly<Record<string, number>>, target: Readonly<Record<string, number>>): string[] {
  return Object.keys(source).filter((name) => source[name] !== target[name]).map((name) => `${name}: ${source[name]} in SQLite, ${target[name] ?? 'none'} in PostgreSQL`);
}
