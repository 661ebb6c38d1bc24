// `iris dashboard password [--stdin] [--clear]`: the password that opens the dashboard on a
// non-loopback address (and on loopback too, once set), kept only as a scrypt hash in .env.
import { PASSWORD_HASH_ENV, hashPassword, passwordProblem } from '../../dashboard/auth/password-hash.js';
import { setEnvValue, unsetEnvValue } from '../../config/env-file.js';
import { printData } from '../console.js';
import { openHome } from '../context.js';
import { CliFailure, EXIT } from '../exit-codes.js';

export type DashboardPasswordOptions = { stdin?: boolean; clear?: boolean };

/** One line from standard input: the first line break ends it (a trailing \r too). */
async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split('\n', 1)[0]!.replace(/\r$/, '');
}

async function askTwice(): Promise<string> {
  const clack = await import('@clack/prompts');
  const first = await clack.password({ message: 'Dashboard password', validate: (value) => passwordProblem(value ?? '') });
  if (clack.isCancel(first)) throw new CliFailure('usage', 'cancelled; the password was not changed');
  const second = await clack.password({ message: 'The same password again' });
  if (clack.isCancel(second)) throw new CliFailure('usage', 'cancelled; the password was not changed');
  if (first !== second) throw new CliFailure('usage', 'the two passwords differ; the password was not changed');
  return first;
}

export async function dashboardPassword(options: DashboardPasswordOptions): Promise<number> {
  if (options.clear && options.stdin) throw new CliFailure('usage', '--clear and --stdin do not go together');
  const paths = await openHome();
  if (options.clear) {
    const removed = await unsetEnvValue(paths, PASSWORD_HASH_ENV);
    if (!removed.ok) throw new CliFailure(removed.error.code, removed.error.message);
    printData(removed.removed ? 'The dashboard password is removed; it applies from the next start of iris dashboard.' : 'No dashboard password was set.');
    return EXIT.ok;
  }
  let password: string;
  if (options.stdin) password = await readStdinLine();
  else if (process.stdin.isTTY && process.stdout.isTTY) password = await askTwice();
  else throw new CliFailure('usage', 'no terminal to ask the password on: pipe it in with --stdin');
  const problem = passwordProblem(password);
  if (problem) throw new CliFailure('usage', `${problem}; the password was not changed`);
  const written = await setEnvValue(paths, PASSWORD_HASH_ENV, await hashPassword(password));
  if (!written.ok) throw new CliFailure(written.error.code, written.error.message);
  printData(`The dashboard password is set (a scrypt hash in ${paths.envPath}); it applies from the next start of iris dashboard.`);
  return EXIT.ok;
}
