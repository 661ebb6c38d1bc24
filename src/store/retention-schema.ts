// Retention's schema change, on both stores (DECISIONS "Retention"):
// - usage rows can be per-day totals: `calls` (1 for a call's own row) and `unpriced_calls` (NULL on
//   a call's own row; on a total, how many of its calls had no known price), so the summary sums
//   both kinds of row alike and the ledger's totals never change when old days are folded;
// - an index on every foreign key a session delete walks: skill_loads.session_id (messages are
//   found by their primary key; usage no longer references sessions).
import type { Migration } from './migrations.js';

const DESCRIPTION = 'retention: usage per-day totals, an index for session deletes';

function retentionSql(integer: 'INTEGER' | 'BIGINT'): string {
  return `
    ALTER TABLE usage ADD COLUMN calls ${integer} NOT NULL DEFAULT 1 CHECK (calls >= 1);
    ALTER TABLE usage ADD COLUMN unpriced_calls ${integer} CHECK (unpriced_calls IS NULL OR (unpriced_calls >= 0 AND unpriced_calls <= calls));
    CREATE INDEX skill_loads_by_session ON skill_loads (session_id);
  `;
}

export const SQLITE_RETENTION: Migration = { version: 10, description: DESCRIPTION, sql: retentionSql('INTEGER') };
export const PG_RETENTION: Migration = { version: 11, description: DESCRIPTION, sql: retentionSql('BIGINT') };
