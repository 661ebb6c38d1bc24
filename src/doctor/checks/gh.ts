// The GitHub CLI, when a route delivers forge_comment: found (`gh --version`) and signed in
// (`gh auth status`). Pure: what the two runs did comes in as values (see gh-binary.ts's GhRun).
import type { GhRun } from '../../delivery/gh-binary.js';
import { fail, ok, plural, type CheckResult } from '../types.js';

export const GH_TIMEOUT_MS = 5_000;

export type GhFacts = {
  /** What runs: IRIS_GH_BIN, else `gh` on PATH. */
  readonly bin: string;
  readonly version: GhRun;
  /** Run only when `--version` worked. */
  readonly auth?: GhRun;
};

const ID = 'gh';
const INSTALL_FIX = 'install the GitHub CLI (https://cli.github.com) and run gh auth login, or set IRIS_GH_BIN to its path';
const LOGIN_FIX = 'run gh auth login on this machine, or set GH_TOKEN: iris config set GH_TOKEN <token>';

function routesText(routes: readonly string[]): string {
  return `${plural(routes.length, 'route')} ${routes.join(', ')} ${plural(routes.length, 'delivers', 'deliver')} forge_comment`;
}

/** `gh version 2.63.0 (2024-11-27)` → `gh 2.63.0`. */
export function ghVersion(stdout: string): string {
  const version = /gh version (\S+)/.exec(stdout)?.[1];
  return version ? `gh ${version}` : 'gh (version unknown)';
}

function runProblem(run: GhRun, what: string): string {
  switch (run.kind) {
    case 'exited':
      return `${what} exited with ${run.exitCode}`;
    case 'not_started':
      return `${what} could not be started (${run.errno})`;
    case 'timeout':
      return `${what} gave no answer within ${GH_TIMEOUT_MS / 1000} s`;
    case 'cancelled':
      return `${what} was cancelled`;
    case 'output_overflow':
      return `${what} printed more than expected`;
    case 'killed':
      return `${what} was killed by ${run.signal}`;
  }
}

export function checkGh(facts: GhFacts, routes: readonly string[]): CheckResult {
  const { bin, version, auth } = facts;
  const why = routesText(routes);
  if (version.kind === 'not_started' && version.errno === 'ENOENT') return fail(ID, ID, `${bin} not found; ${why}`, INSTALL_FIX);
  if (version.kind !== 'exited' || version.exitCode !== 0) {
    return fail(ID, ID, `${runProblem(version, `${bin} --version`)}; ${why}`, "check that IRIS_GH_BIN (or gh on PATH) is the GitHub CLI and that you may run it");
  }
  const found = ghVersion(version.stdout);
  if (!auth) return fail(ID, ID, `${found} found, sign-in not checked; ${why}`, LOGIN_FIX);
  if (auth.kind === 'exited' && auth.exitCode === 0) return ok(ID, ID, `${found}, signed in; ${why}`);
  if (auth.kind === 'exited') return fail(ID, ID, `${found} is not signed in; ${why}`, LOGIN_FIX);
  return fail(ID, ID, `${found}: ${runProblem(auth, 'gh auth status')}; ${why}`, 'run gh auth status on this machine to see why');
}
