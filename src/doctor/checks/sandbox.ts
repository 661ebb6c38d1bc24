// The terminal's sandbox: whether some run needs bubblewrap (tools.terminal.sandbox, the gateway's
// webhook and chat runs under `auto`, a route's own `sandbox: bubblewrap`), and whether `bwrap` is
// there and can make its namespaces here (a kernel or container may forbid user namespaces). Pure.
import { ok, fail, type CheckResult } from '../types.js';

export type SandboxFacts = {
  /** Why some run will be sandboxed, or undefined when none will. */
  readonly neededFor: string | undefined;
  readonly bwrap: string | undefined;
  /** A trial run of bwrap: undefined when not tried. */
  readonly trial: { readonly ok: true } | { readonly ok: false; readonly message: string } | undefined;
};

const ID = 'sandbox';

export function checkSandbox(facts: SandboxFacts): CheckResult | undefined {
  // No run needs it: nothing to say, whether bwrap is there or not.
  if (facts.neededFor === undefined) return undefined;
  if (!facts.bwrap) {
    return fail(ID, ID, `${facts.neededFor} run commands in bubblewrap, which is not on PATH: their commands are refused`, 'apt-get install bubblewrap');
  }
  if (facts.trial && !facts.trial.ok) {
    return fail(ID, ID, `${facts.bwrap} cannot make a sandbox here: ${facts.trial.message}`, 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; in a container, run it with user namespaces allowed), or set tools.terminal.sandbox: off and approval_mode: manual');
  }
  return ok(ID, ID, `${facts.neededFor} run commands in bubblewrap (${facts.bwrap})`);
}
