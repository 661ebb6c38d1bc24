// The terminal tool (`run_command`): asks for approval, then runs the model's command line in the
// workspace with a timeout, capped output and an environment without secrets.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import type { Env } from '../../../config/home.js';
import { defineTool } from '../define-tool.js';
import type { Tool, ToolResult } from '../types.js';
import { resolveWorkspacePath } from '../workspace-path.js';
import { buildChildEnv } from './child-env.js';
import { runShell, type ShellRun } from './run-shell.js';
import { commandToStart } from '../../../sandbox/sandbox-command.js';
import { describePlan, type SandboxPlan } from '../../../sandbox/settings.js';

export const TERMINAL_LIMITS = Object.freeze({
  defaultTimeoutSeconds: 120,
  maxTimeoutSeconds: 600,
  /** Per stream (stdout, stderr): half kept from the start, half from the end. */
  maxOutputBytes: 32 * 1024,
  killGraceMs: 2_000,
  lingerMs: 1_000,
});

export type TerminalOptions = {
  /** The environment the command inherits, before secrets are taken out. Default: `process.env`. */
  readonly env?: Env;
  /** Default: `/bin/bash` when present, else `/bin/sh`. */
  readonly shell?: string;
  readonly maxOutputBytes?: number;
  readonly killGraceMs?: number;
  readonly lingerMs?: number;
  /** Where commands run: in bubblewrap or not (src/sandbox). Default: not. */
  readonly sandbox?: SandboxPlan;
  /** Never shown inside the sandbox: the user's home and Iris's home. */
  readonly hiddenHomes?: { readonly home: string | undefined; readonly irisHomes: readonly string[] };
  /** Told about each command that runs sandboxed, with its settings (for the log; never the environment). */
  readonly onSandboxed?: (info: { readonly command: string; readonly cwd: string; readonly sandbox: string }) => void;
};

const args = z.strictObject({
  command: z.string().check(z.minLength(1), z.describe('The command line, run by bash (or sh) with -c.')),
  cwd: z.optional(
    z.string().check(z.describe('Folder to run in, relative to the workspace root (default: the root). Must stay inside the workspace.')),
  ),
  timeout_seconds: z.optional(
    z.number().check(
      z.positive(),
      z.maximum(TERMINAL_LIMITS.maxTimeoutSeconds),
      z.describe(`Stop the command (and everything it started) after this long. Default ${TERMINAL_LIMITS.defaultTimeoutSeconds}, at most ${TERMINAL_LIMITS.maxTimeoutSeconds}.`),
    ),
  ),
});

function defaultShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

export function createTerminalTool(options: TerminalOptions = {}): Tool {
  const shell = options.shell ?? defaultShell();
  const maxOutputBytes = options.maxOutputBytes ?? TERMINAL_LIMITS.maxOutputBytes;
  return defineTool({
    name: 'run_command',
    description:
      `Run a shell command line in the workspace and return its exit code, stdout and stderr. ` +
      `Runs non-interactively (no TTY, empty stdin) with ${shell}. Each stream is capped at ` +
      `${Math.round(maxOutputBytes / 1024)} KiB (start and end kept). The user or the approval policy may refuse a ` +
      `command. Credentials are not in the environment. Start long-running background jobs with ` +
      `their output redirected (cmd > log 2>&1 &).` +
      (options.sandbox?.kind === 'bubblewrap'
        ? ` Commands run in a sandbox: only the workspace is visible (HOME is the workspace, /tmp is private), ` +
          `the system folders are read-only${options.sandbox.network ? '' : ', and there is no network'}.`
        : ''),
    args,
    readOnly: false,
    async run({ command, cwd, timeout_seconds }, context): Promise<ToolResult> {
      const where = await resolveWorkspacePath(context.workspaceRoot, cwd ?? '.');
      if (!where.ok) return { ok: false, content: `command not run: ${where.error}` };
      const info = await stat(where.path.absolute).catch(() => undefined);
      if (!info?.isDirectory()) {
        return { ok: false, content: `command not run: cwd "${where.path.relative}" is not a folder in the workspace` };
      }
      const decision = await context.approve({ command, cwd: where.path.absolute });
      if (!decision.approved) return { ok: false, content: `command not run: ${decision.reason}` };

      const timeoutSeconds = timeout_seconds ?? TERMINAL_LIMITS.defaultTimeoutSeconds;
      const env = options.env ?? process.env;
      const plan = options.sandbox ?? { kind: 'off' };
      const start = commandToStart(plan, { shell, command, workspace: context.workspaceRoot, cwd: where.path.absolute, env: buildChildEnv(env) }, {
        env,
        home: options.hiddenHomes?.home,
        irisHomes: options.hiddenHomes?.irisHomes ?? [],
      });
      if (!start.ok) return { ok: false, content: start.error };
      if (plan.kind !== 'off') options.onSandboxed?.({ command, cwd: where.path.absolute, sandbox: describePlan(plan) });
      const run = await runShell({
        file: start.file,
        args: start.args,
        cwd: where.path.absolute,
        env: start.env,
        timeoutMs: timeoutSeconds * 1000,
        signal: context.signal,
        maxOutputBytes,
        killGraceMs: options.killGraceMs ?? TERMINAL_LIMITS.killGraceMs,
        lingerMs: options.lingerMs ?? TERMINAL_LIMITS.lingerMs,
      });
      return formatShellRun(run, timeoutSeconds);
    },
  });
}

/** What the model reads back. Success means the command ran to the end and exited 0. */
export function formatShellRun(run: ShellRun, timeoutSeconds: number): ToolResult {
  if (run.kind === 'not_started') return { ok: false, content: `command not run: ${run.message}` };
  const lines: string[] = [];
  if (run.stopped === 'timeout') {
    lines.push(`timed out after ${timeoutSeconds} s: the command and every process it started were stopped`);
  } else if (run.stopped === 'cancelled') {
    lines.push('cancelled: the command and every process it started were stopped');
  }
  lines.push(
    run.exitCode === null ? `exit code: none (ended by ${run.exitSignal ?? 'a signal'})` : `exit code: ${run.exitCode}`,
  );
  lines.push(section('stdout', run.stdout), section('stderr', run.stderr));
  if (run.stoppedLingering) {
    lines.push(
      'note: background processes kept the output open after the shell exited and were stopped; ' +
        'redirect the output of a background job to a file (cmd > log 2>&1 &) to keep it running',
    );
  }
  return { ok: run.exitCode === 0 && run.stopped === undefined, content: lines.join('\n') };
}

function section(name: string, text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body === '' ? `${name}: (empty)` : `${name}:\n${body}`;
}
