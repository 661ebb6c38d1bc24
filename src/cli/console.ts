// What the CLI prints besides data: one-line errors and warnings on stderr, never a stack trace
// (IRIS_DEBUG=1 adds it), and never a secret.
import { redactText } from '../log/redact.js';

export function printError(message: string): void {
  process.stderr.write(`iris: error: ${redactText(message)}\n`);
}

export function printWarning(message: string): void {
  process.stderr.write(`iris: warning: ${redactText(message)}\n`);
}

export function printData(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function debugEnabled(): boolean {
  return process.env.IRIS_DEBUG === '1';
}
