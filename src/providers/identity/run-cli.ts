// Running a cloud CLI for a token: execFile, never a shell, always with a timeout and the chain's
// signal, with the caller's environment map (its PATH finds the CLI). Windows is the exception
// that proves the rule: `az` is a .cmd script there, which Node runs only through cmd.exe, so the
// arguments must already be safe (the scope and tenant are checked against a strict pattern).
import { execFile } from 'node:child_process';
import type { Env } from '../../config/home.js';

export type CliRun =
  | { readonly kind: 'done'; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'error'; readonly stderr: string; readonly message: string };

export type CliRequest = {
  readonly command: 'az' | 'azd';
  readonly args: readonly string[];
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
};

function definedEnv(env: Env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

export function runCli(request: CliRequest): Promise<CliRun> {
  const { command, args, env, platform } = request;
  const viaCmd = platform === 'win32' && command === 'az';
  const file = viaCmd ? 'cmd.exe' : command;
  const argv = viaCmd ? ['/d', '/s', '/c', command, ...args] : [...args];
  // cmd.exe looks in the working directory before PATH: run from the system directory, not from
  // wherever Iris was started (a repository could hold an `az.cmd`).
  const cwd = platform === 'win32' ? (env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows') : undefined;
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      {
        env: definedEnv(env),
        ...(cwd ? { cwd } : {}),
        signal: request.signal,
        timeout: Math.max(1, request.timeoutMs),
        windowsHide: true,
        maxBuffer: 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ kind: 'done', stdout, stderr });
        const code = (error as NodeJS.ErrnoException).code;
        const notRecognised = viaCmd && /is not recognized as an internal or external command/i.test(stderr);
        if (code === 'ENOENT' || notRecognised) return resolve({ kind: 'not_found' });
        resolve({ kind: 'error', stderr, message: error.message });
      },
    );
  });
}

/** The lines of stderr worth showing: the CLI's ERROR line if it printed one, else the first line. */
export function stderrSummary(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /^error\b/i.test(line)) ?? lines[0] ?? '';
}
