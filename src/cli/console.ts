// What the CLI prints: data on stdout, and one-line errors and warnings on stderr, never a stack
// trace (IRIS_DEBUG=1 adds it), and never a secret.
import { writeSync } from 'node:fs';
import { redactText } from '../log/redact.js';

/**
 * How data reaches stdout: straight to the descriptor; through process.stdout once the descriptor
 * was full (the stream then holds what waits, and what follows must queue behind it); or nowhere
 * once the reader has gone (`iris … | head -1`).
 */
let stdoutMode: 'direct' | 'stream' | 'closed' = 'direct';

/** The reader of stdout has gone: what a command would still print has nowhere to go. */
export function stdoutClosed(): boolean {
  return stdoutMode === 'closed';
}

function toStream(data: Uint8Array): void {
  if (stdoutMode !== 'stream') {
    stdoutMode = 'stream';
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      stdoutMode = 'closed';
    });
  }
  process.stdout.write(data);
}

/**
 * Writes data to stdout. Straight to the descriptor, synchronously: process.stdout builds a stream
 * on first use (milliseconds of every command's start-up), and it ends the process with a stack
 * trace when the reader has gone. A closed stdout ends the output quietly, as for any Unix filter.
 * A stdout that someone set non-blocking and that is full hands the rest to process.stdout.
 */
export function writeStdout(text: string): void {
  if (stdoutMode === 'closed') return;
  let rest: Uint8Array = Buffer.from(text);
  if (stdoutMode === 'stream') return toStream(rest);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(1, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') stdoutMode = 'closed';
    else if (code === 'EAGAIN') toStream(rest);
    else throw err;
  }
}

export function printError(message: string): void {
  process.stderr.write(`iris: error: ${redactText(message)}\n`);
}

export function printWarning(message: string): void {
  process.stderr.write(`iris: warning: ${redactText(message)}\n`);
}

export function printData(text: string): void {
  writeStdout(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  writeStdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function debugEnabled(): boolean {
  return process.env.IRIS_DEBUG === '1';
}
