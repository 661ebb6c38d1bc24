// A command on a real pseudo-terminal, through util-linux `script`, so an interactive prompt (the
// setup wizard) sees a TTY on stdin and stdout. Tests wait for text on the screen, then type.
import { spawn, type ChildProcess } from 'node:child_process';
import { cleanEnv } from './iris.js';

export type PtySession = {
  readonly child: ChildProcess;
  /** Everything written to the terminal so far, ANSI sequences removed. */
  screen(): string;
  /** Waits until `text` appears after the last `type` (or the start), then returns. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  exited: Promise<number | null>;
};

export const KEYS = Object.freeze({ enter: '\r', down: '\u001b[B', up: '\u001b[A', escape: '\u001b', ctrlC: '\u0003', tab: '\t' });

// CSI sequences, OSC sequences, other two-character escapes.
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]|${ESC}\\][^${BEL}]*${BEL}|${ESC}[@-Z\\\\-_]`, 'g');

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function startPty(argv: readonly string[], env: Record<string, string>): PtySession {
  // The terminal starts 0×0 (script takes its size from its own stdin, a pipe): give it one.
  const command = `stty cols 120 rows 40; exec ${argv.map(shellQuote).join(' ')}`;
  // -q quiet, -f flush, -e return the command's exit code, -c the command; no typescript file.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...cleanEnv(env), TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  let mark = 0;
  child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const clean = () => raw.replace(ANSI, '');
  return {
    child,
    screen: clean,
    exited,
    type(keys) {
      mark = clean().length;
      child.stdin.write(keys);
    },
    async waitFor(text, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const recent = clean().slice(mark);
        if (typeof text === 'string' ? recent.includes(text) : text.test(recent)) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)} on the terminal; it shows:\n${clean().slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    },
  };
}
