// How the demo talks: a labelled line per step, indented detail under it, quoted blocks for text
// that came from somewhere else (a file, the gateway, the model).
const LABEL_WIDTH = 11;

/** A failure the demo explains itself: its message is printed without a stack. */
export class DemoFailure extends Error {}

export function step(label: string, text: string): void {
  process.stdout.write(`${`[${label}]`.padEnd(LABEL_WIDTH)} ${text}\n`);
}

export function note(text: string): void {
  for (const line of text.split('\n')) process.stdout.write(`${' '.repeat(LABEL_WIDTH + 1)}${line}\n`);
}

/** Text shown verbatim, each line behind a bar so its start and end are plain. */
export function block(text: string, bar = '|'): void {
  const lines = text.replace(/\n$/, '').split('\n');
  for (const line of lines) process.stdout.write(`${' '.repeat(LABEL_WIDTH + 3)}${bar}${line === '' ? '' : ` ${line}`}\n`);
}

export function blank(): void {
  process.stdout.write('\n');
}

/** Failures go to stderr so they stand apart from the walk-through. */
export function failure(text: string): void {
  process.stderr.write(`${text}\n`);
}
