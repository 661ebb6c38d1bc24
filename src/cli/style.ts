// How the CLI colours text once color-choice.ts has decided it may: ✓ green, ! yellow, ✗ red,
// secondary text (fix lines, notes, reasons) dim. Built on node:util styleText with its own
// stream check off, because the decision is made once, by shouldColor, for the stream we print on.
import { styleText } from 'node:util';
import { shouldColor } from './color-choice.js';

export type Tone = 'ok' | 'warn' | 'fail';

export type Style = {
  /** ✓, ! or ✗, in its colour. */
  readonly mark: (tone: Tone) => string;
  /** Any text in a tone's colour (a summary word, a problem in brackets). */
  readonly tone: (tone: Tone, text: string) => string;
  readonly dim: (text: string) => string;
};

export const MARKS: Readonly<Record<Tone, string>> = { ok: '✓', warn: '!', fail: '✗' };

const COLORS = { ok: 'green', warn: 'yellow', fail: 'red' } as const satisfies Record<Tone, string>;

export const PLAIN: Style = Object.freeze({
  mark: (tone: Tone) => MARKS[tone],
  tone: (_tone: Tone, text: string) => text,
  dim: (text: string) => text,
});

const paint = (format: Parameters<typeof styleText>[0], text: string) =>
  // An empty string stays empty: no escape pair around nothing.
  text === '' ? text : styleText(format, text, { validateStream: false });

export const COLORED: Style = Object.freeze({
  mark: (tone: Tone) => paint(COLORS[tone], MARKS[tone]),
  tone: (tone: Tone, text: string) => paint(COLORS[tone], text),
  dim: (text: string) => paint('dim', text),
});

export function createStyle(color: boolean): Style {
  return color ? COLORED : PLAIN;
}

/** The style for text written to this process's stdout (the one edge that reads the environment). */
export function stdoutStyle(): Style {
  return createStyle(shouldColor({ isTTY: process.stdout.isTTY, env: process.env }));
}
