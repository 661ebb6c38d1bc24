// Which runs get the sandbox (DECISIONS § Sandbox and fetch guard). `tools.terminal.sandbox`:
// `auto` (the default) sandboxes every run the gateway makes (webhook and chat: strangers' text)
// and not `iris chat` (the user's own terminal); `bubblewrap` sandboxes every run; `off` none. A
// webhook route may set its own `sandbox`, `sandbox_network` and `sandbox_env`. Pure.

import type { RouteSandboxMode, SandboxMode } from '../domain/sandbox-modes.js';

export { ROUTE_SANDBOX_MODES, SANDBOX_MODES, type RouteSandboxMode, type SandboxMode } from '../domain/sandbox-modes.js';

/** Who the run is for: the CLI user at their own terminal, or the gateway acting on others' text. */
export type RunKind = 'cli' | 'gateway';

export type TerminalSandboxSetting = { readonly sandbox: SandboxMode; readonly network: boolean };
export type RouteSandboxSetting = {
  readonly sandbox?: RouteSandboxMode | undefined;
  readonly sandbox_network?: boolean | undefined;
  readonly sandbox_env?: readonly string[] | undefined;
};

export type SandboxPlan =
  | { readonly kind: 'off' }
  | { readonly kind: 'bubblewrap'; readonly network: boolean; readonly passEnv: readonly string[] };

export function planSandbox(setting: TerminalSandboxSetting, runKind: RunKind, route: RouteSandboxSetting = {}): SandboxPlan {
  const mode = route.sandbox ?? (setting.sandbox === 'auto' ? (runKind === 'gateway' ? 'bubblewrap' : 'off') : setting.sandbox);
  if (mode === 'off') return { kind: 'off' };
  return { kind: 'bubblewrap', network: route.sandbox_network ?? setting.network, passEnv: [...new Set(route.sandbox_env ?? [])] };
}

/** How a plan is named in logs and tool output: `bubblewrap (network off)`. */
export function describePlan(plan: SandboxPlan): string {
  if (plan.kind === 'off') return 'off';
  const env = plan.passEnv.length > 0 ? `, env ${plan.passEnv.join(' ')}` : '';
  return `bubblewrap (network ${plan.network ? 'on' : 'off'}${env})`;
}
