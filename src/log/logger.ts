// JSON-lines logs under $IRIS_HOME/logs: agent.log for model calls and agent runs, gateway.log
// for the gateway. Every object and message passes through the redactor first. Loaded lazily:
// commands that log nothing never pay for pino.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { HomePaths } from '../config/home.js';
import { redactText, redactValue } from './redact.js';
import { DEFAULT_ROTATION, rotateIfLarge, type Rotation } from './rotation.js';
import { dropOnError } from './drop-on-error.js';

export type LogName = 'agent' | 'gateway';
export type { Logger };

export type LoggerOptions = {
  readonly level?: string;
  /** Synchronous writes, for short-lived CLI processes that must not drop lines on exit. */
  readonly sync?: boolean;
  /** When the file is rotated (config `logging.max_size_mb`, `logging.keep`). */
  readonly rotation?: Rotation;
};

/** How often a logger compares its file with the size limit. */
const ROTATION_CHECK_MS = 1_000;

export function logFilePath(paths: HomePaths, name: LogName): string {
  return join(paths.logsDir, `${name}.log`);
}

export function createLogger(paths: HomePaths, name: LogName, options: LoggerOptions = {}): Logger {
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  const file = logFilePath(paths, name);
  const rotation = options.rotation ?? DEFAULT_ROTATION;
  rotateIfLarge(file, rotation);
  closeSync(openSync(file, 'a', 0o600)); // create with 0600 before pino opens it
  // Logs can hold prompts and payloads: an older or copied log folder is narrowed too.
  chmodSync(paths.logsDir, 0o700);
  chmodSync(file, 0o600);
  const destination = pino.destination({ dest: file, sync: options.sync ?? true, append: true, mode: 0o600 });
  // A full disk drops lines (counted), never stops the process nor retries them forever.
  dropOnError(destination);
  // Checked on a timer, not per line: a stat a second costs nothing, and a file can overshoot the
  // limit by at most a second of lines. Unref'd, so a short-lived command exits as before.
  const check = setInterval(() => {
    try {
      if (rotateIfLarge(file, rotation)) destination.reopen();
    } catch {
      // A failed rotation (a full disk, a permissions change) keeps writing to the same file.
    }
  }, ROTATION_CHECK_MS);
  check.unref();
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, log: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redactValue(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const safe = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg));
          return method.apply(this, safe as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

