// Whether the CLI colours what it prints. Pure: the caller passes the stream's isTTY and the
// environment. The order is the common convention, so that one setting behaves as it does for
// other tools: NO_COLOR (https://no-color.org) wins over everything, FORCE_COLOR comes next (as
// Node reads it: `0` or `false` means no colour even on a terminal, any other value colour even
// through a pipe), then TERM=dumb, then "is it a terminal".

export type ColorInput = {
  readonly isTTY: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
};

const FORCE_OFF: ReadonlySet<string> = new Set(['0', 'false']);

export function shouldColor({ isTTY, env }: ColorInput): boolean {
  // no-color.org: "present and not an empty string".
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !FORCE_OFF.has(force.trim().toLowerCase());
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}
