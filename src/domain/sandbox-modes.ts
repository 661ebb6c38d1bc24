// The sandbox settings' words (DECISIONS § Sandbox and fetch guard), here so that the config
// schema (a floor below src/sandbox) and the sandbox share one list.
export const SANDBOX_MODES = ['auto', 'bubblewrap', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const ROUTE_SANDBOX_MODES = ['bubblewrap', 'off'] as const;
export type RouteSandboxMode = (typeof ROUTE_SANDBOX_MODES)[number];
