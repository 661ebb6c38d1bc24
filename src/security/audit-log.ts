// logs/audit.log (DECISIONS § Dashboard sign-in and roles): one JSON line per sign-in, sign-out,
// dashboard write and chat owner command, `{time, actor, from, action, target, ok}` plus an
// optional `reason`. Written synchronously with append (an audit line must not wait in a buffer
// that a crash would lose), rotated by size like the other logs, and passed through the redactor:
// no password, token or secret reaches it, whatever a caller puts in `target` or `reason`.
import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HomePaths } from '../config/home.js';
import { redactText } from '../log/redact.js';
import { DEFAULT_ROTATION, rotateIfLarge, type Rotation } from '../log/rotation.js';

export type AuditEntry = {
  /** Who: `dashboard:password`, `proxy:<user>`, `telegram:<user id>`, `cli`… */
  readonly actor: string;
  /** From where: the client address, or the chat (`telegram:<chat id>`). */
  readonly from: string;
  /** What, as a stable word: `sign_in`, `sign_out`, `model.set`, `chat.sethome`… */
  readonly action: string;
  /** What it was done to (a slot, a profile, a chat); '' when nothing in particular. */
  readonly target?: string;
  readonly ok: boolean;
  /** Why it failed or was refused, in a few words. */
  readonly reason?: string;
};

/** Longest text kept per field: a hostile name cannot bloat the log. */
const MAX_FIELD = 200;

function clean(text: string): string {
  const redacted = redactText(text);
  return redacted.length > MAX_FIELD ? `${redacted.slice(0, MAX_FIELD)}…` : redacted;
}

/** The line for `entry` at `now` (with its newline). Pure. */
export function auditLine(entry: AuditEntry, now: Date): string {
  const line = {
    time: now.toISOString(),
    actor: clean(entry.actor),
    from: clean(entry.from),
    action: clean(entry.action),
    target: clean(entry.target ?? ''),
    ok: entry.ok,
    ...(entry.reason === undefined ? {} : { reason: clean(entry.reason) }),
  };
  return `${JSON.stringify(line)}\n`;
}

export function auditLogPath(paths: HomePaths): string {
  return join(paths.logsDir, 'audit.log');
}

export type AuditLog = { readonly write: (entry: AuditEntry) => void };

/**
 * An audit log that never throws: a line it cannot write (a full disk) is reported to `onError`
 * once per failure and the action it records goes on (refusing a sign-in because the disk is full
 * would lock the operator out when they most need in).
 */
export function createAuditLog(
  paths: HomePaths,
  options: { readonly rotation?: Rotation; readonly now?: () => Date; readonly onError?: (err: unknown) => void } = {},
): AuditLog {
  const file = auditLogPath(paths);
  const rotation = options.rotation ?? DEFAULT_ROTATION;
  const now = options.now ?? (() => new Date());
  return {
    write(entry) {
      try {
        mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
        rotateIfLarge(file, rotation);
        appendFileSync(file, auditLine(entry, now()), { mode: 0o600 });
        chmodSync(file, 0o600);
      } catch (err) {
        options.onError?.(err);
      }
    },
  };
}
