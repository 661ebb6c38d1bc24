// "Are you sure?" before a command removes something. Asked only on a terminal; anywhere else the
// command must be told with --yes, because a script cannot answer and must never delete by default.
import { createInterface } from 'node:readline';
import { CliFailure } from './exit-codes.js';

/** Resolves true only for y/yes; Ctrl-C, Ctrl-D and anything else are no. */
export function confirm(question: string, command: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    return Promise.reject(new CliFailure('usage', `${command} asks before removing anything: run it on a terminal, or pass --yes`));
  }
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let settled = false;
    const finish = (yes: boolean) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(yes);
    };
    rl.on('SIGINT', () => {
      process.stderr.write('\n');
      finish(false);
    });
    rl.on('close', () => finish(false));
    rl.question(`${question} [y/N] `, (answer) => finish(/^y(es)?$/i.test(answer.trim())));
  });
}
