// Shared by the chat-platform end-to-end tests: a config.yaml with the main model on the fake
// upstream and one platform, and the platform tables of state.db read directly (read-only), so a
// test can assert exactly what was stored.
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { waitFor } from './gateway.js';

const require = createRequire(import.meta.url);

/**
 * Writes config.yaml: the main model `main-m` on openai, the listener on 127.0.0.1:0, webhook routes
 * when given (then the webhook platform is on), and `platformYaml` under `platforms:` (indented 2).
 */
export async function writePlatformConfig(home: string, platformYaml: string, routesYaml = ''): Promise<void> {
  const webhook = `  webhook:\n    enabled: ${routesYaml ? 'true' : 'false'}\n    extra:\n      host: 127.0.0.1\n      port: 0\n${routesYaml ? `      routes:\n${routesYaml}` : ''}`;
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\nplatforms:\n${webhook}${platformYaml}`, { mode: 0o600 });
}

export type InboundRow = { id: number; platform: string; chat_id: string; thread_id: string | null; message_id: string; user_id: string; text: string; session_key: string; state: string; attempts: number; error: string | null };
export type OutboxRow = { id: number; platform: string; chat_id: string; thread_id: string | null; text: string; origin: string | null; part: number; state: string; attempts: number; last_error: string | null };

function query<T>(home: string, sql: string): T[] {
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

export const inboundRows = (home: string) => query<InboundRow>(home, 'SELECT * FROM platform_inbound ORDER BY id');
export const outboxRows = (home: string) => query<OutboxRow>(home, 'SELECT * FROM platform_outbox ORDER BY id');
/** Which session each conversation (session key) is in. */
export const platformSessions = (home: string) => query<{ session_key: string; session_id: string }>(home, 'SELECT session_key, session_id FROM platform_sessions ORDER BY session_key');

/** MAX_MESSAGE_ATTEMPTS in src/platforms/conversation-runner.ts (importing it would load the agent). */
const MAX_MESSAGE_ATTEMPTS = 3;

/**
 * For the crash harnesses: the poison rule answers a message whose run was cut off 3 times with an
 * apology. Their kills are not the message's doing, so a kill that would cut a message a third
 * time waits for it first. Says whether it had to wait.
 */
export async function spareLastAttempt(home: string): Promise<boolean> {
  const lastAttempt = () => inboundRows(home).some((row) => row.state === 'running' && row.attempts >= MAX_MESSAGE_ATTEMPTS);
  if (!lastAttempt()) return false;
  await waitFor(() => (lastAttempt() ? undefined : true), 10_000, 'a message on its last attempt to be answered before the kill');
  return true;
}
