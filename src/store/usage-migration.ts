// The usage ledger's schema change, on both stores: every usage row says which run's source it
// served (`cli`, `dashboard`, `webhook:<route>`, `platform:<name>`, `gateway`) and how many input
// tokens were written to the provider's prompt cache (cache_write_tokens, apart from the cached
// tokens read). The link to the session is no longer a foreign key: a usage row stays exactly as
// it was written when its session is deleted (and a call that ends after its session was deleted
// is still counted), so the ledger's totals never move.
//
// Rows written before have no source: their session's source says it (a platform session's source
// is the platform's bare name), else `cli` (calls outside a session were made by CLI commands).
import type { Migration } from './migrations.js';

/** The source of an old usage row from its session's source (`s.source`, NULL without a session). */
const DERIVED_SOURCE = `
  CASE
    WHEN s.source IS NULL THEN 'cli'
    WHEN s.source IN ('cli', 'dashboard') OR substr(s.source, 1, 8) = 'webhook:' THEN s.source
    ELSE 'platform:' || s.source
  END`;

const DESCRIPTION = 'usage ledger: the source of every call, cache-write tokens, usage apart from its session';

/**
 * SQLite cannot drop a foreign key in place: the table is built again (ids kept), the new columns
 * last, as PostgreSQL's ALTER TABLE adds them, so both stores list the same columns.
 */
export const SQLITE_USAGE_LEDGER: Migration = {
  version: 8,
  description: DESCRIPTION,
  sql: `
    CREATE TABLE usage_ledger (
      id INTEGER PRIMARY KEY,
      session_id TEXT,
      at INTEGER NOT NULL,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      task TEXT NOT NULL,
      input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
      output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
      cached_tokens INTEGER NOT NULL CHECK (cached_tokens >= 0),
      cost_usd REAL CHECK (cost_usd IS NULL OR cost_usd >= 0),
      source TEXT NOT NULL CHECK (length(source) > 0),
      cache_write_tokens INTEGER NOT NULL CHECK (cache_write_tokens >= 0)
    ) STRICT;
    INSERT INTO usage_ledger (id, session_id, at, provider, model, task, input_tokens, output_tokens, cached_tokens, cost_usd, source, cache_write_tokens)
      SELECT u.id, u.session_id, u.at, u.provider, u.model, u.task, u.input_tokens, u.output_tokens, u.cached_tokens, u.cost_usd, ${DERIVED_SOURCE}, 0
      FROM usage u LEFT JOIN sessions s ON s.id = u.session_id;
    DROP TABLE usage;
    ALTER TABLE usage_ledger RENAME TO usage;
    CREATE INDEX usage_by_at ON usage (at);
    CREATE INDEX usage_by_session ON usage (session_id);
  `,
};

/** PostgreSQL's versions 1 to 7 are SQLite's and 8 its own (leases): the same change is its 9. */
export const PG_USAGE_LEDGER: Migration = {
  version: 9,
  description: DESCRIPTION,
  sql: `
    ALTER TABLE usage DROP CONSTRAINT IF EXISTS usage_session_id_fkey;
    ALTER TABLE usage ADD COLUMN source TEXT COLLATE "C";
    ALTER TABLE usage ADD COLUMN cache_write_tokens BIGINT NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0);
    ALTER TABLE usage ALTER COLUMN cache_write_tokens DROP DEFAULT;
    UPDATE usage u SET source = (SELECT ${DERIVED_SOURCE} FROM (SELECT 1) AS one LEFT JOIN sessions s ON s.id = u.session_id);
    ALTER TABLE usage ALTER COLUMN source SET NOT NULL;
    ALTER TABLE usage ADD CONSTRAINT usage_source_not_empty CHECK (length(source) > 0);
  `,
};
