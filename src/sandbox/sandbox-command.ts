// One command line as the process to start: `<shell> -c <line>` as it is, or inside bubblewrap
// with the sandbox's environment. Looks at the disk (where bwrap is, what /bin is) and decides with
// the pure parts (bwrap-argv.ts); never falls back to running unsandboxed.
import { dirname, resolve } from 'node:path';
import { bwrapArgv, sandboxEnv, workspaceProblem } from './bwrap-argv.js';
import { BWRAP_MISSING, etcSecrets, findBwrap, systemPaths } from './find-bwrap.js';
import type { SandboxPlan } from './settings.js';

export type CommandToStart =
  | { readonly ok: true; readonly file: string; readonly args: readonly string[]; readonly env: NodeJS.ProcessEnv }
  | { readonly ok: false; readonly error: string };

export type SandboxFacts = {
  /** The process's environment (PATH finds bwrap; the allowlist is taken from it). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home and Iris's home(s): never shown inside. */
  readonly home: string | undefined;
  readonly irisHomes: readonly string[];
};

export function commandToStart(
  plan: SandboxPlan,
  request: { readonly shell: string; readonly command: string; readonly workspace: string; readonly cwd: string; readonly env: NodeJS.ProcessEnv },
  facts: SandboxFacts,
): CommandToStart {
  if (plan.kind === 'off') return { ok: true, file: request.shell, args: ['-c', request.command], env: request.env };
  const bwrap = findBwrap(facts.env.PATH);
  if (!bwrap) return { ok: false, error: BWRAP_MISSING };
  const workspace = resolve(request.workspace);
  // A profile's home is $IRIS_HOME/profiles/<name>: the base home is hidden as well.
  const irisHomes = facts.irisHomes.flatMap((dir) => {
    const full = resolve(dir);
    return /\/profiles\/[^/]+$/.test(full) ? [full, dirname(dirname(full))] : [full];
  });
  const home = facts.home ? resolve(facts.home) : undefined;
  const problem = workspaceProblem(workspace, { home, irisHomes });
  if (problem) return { ok: false, error: `command not run: ${problem}` };
  const hidden = [...new Set([...(home ? [home] : []), ...irisHomes])];
  const args = bwrapArgv({
    workspace,
    cwd: resolve(request.cwd),
    network: plan.network,
    systemPaths: systemPaths(),
    hidden: hidden.filter((dir) => dir !== '/'),
    etcSecrets: etcSecrets(),
    shell: request.shell,
    command: request.command,
  });
  return { ok: true, file: bwrap, args, env: sandboxEnv(facts.env, workspace, plan.passEnv) };
}
