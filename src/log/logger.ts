// JSON-lines logs under $IRIS_HOME/logs: agent.log for model calls and agent runs, gateway.log
// for the gateway. Every object and message passes through the redactor first. Loaded lazily:
// commands that log nothing never pay for pino.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import type { HomePaths } from '../config/home.js';
import { redactText, redactValue } from './redact.js';

export type LogName = 'agent' | 'gateway';
export type { Logger };

export type LoggerOptions = {
  readonly level?: string;
  /** Synchronous writes, for short-lived CLI processes that must not drop lines on exit. */
  readonly sync?: boolean;
};

export function logFilePath(paths: HomePaths, name: LogName): string {
  return join(paths.logsDir, `${name}.log`);
}

export function createLogger(paths: HomePaths, name: LogName, options: LoggerOptions = {}): Logger {
  mkdirSync(paths.logsDir, { recursive: true, mode: 0o700 });
  const file = logFilePath(paths, name);
  closeSync(openSync(file, 'a', 0o600)); // create with 0600 before pino opens it
  // Logs can hold prompts and payloads: an older or copied log folder is narrowed too.
  chmodSync(paths.logsDir, 0o700);
  chmodSync(file, 0o600);
  const destination = pino.destination({ dest: file, sync: options.sync ?? true, append: true });
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
