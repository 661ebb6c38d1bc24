// What `iris doctor` reports: a list of checks, each ok / warn / fail with a one-line finding and,
// for every problem, the command or edit that fixes it. Healthy means no check failed.

export const CHECK_STATUSES = ['ok', 'warn', 'fail'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export type CheckResult = {
  /** Stable, for scripts: `home`, `config`, `credential:openrouter`, `probe:openrouter`, … */
  readonly id: string;
  /** For people: `home`, `openrouter credential`, … */
  readonly name: string;
  readonly status: CheckStatus;
  readonly finding: string;
  /** Set on every warn and fail. */
  readonly fix?: string;
  /** More lines under the finding (what each identity source said). */
  readonly details?: readonly string[];
};

export type DoctorReport = { readonly healthy: boolean; readonly checks: readonly CheckResult[] };

const withDetails = (details: readonly string[] | undefined) => (details && details.length > 0 ? { details } : {});

export function ok(id: string, name: string, finding: string, details?: readonly string[]): CheckResult {
  return { id, name, status: 'ok', finding, ...withDetails(details) };
}

export function warn(id: string, name: string, finding: string, fix: string, details?: readonly string[]): CheckResult {
  return { id, name, status: 'warn', finding, fix, ...withDetails(details) };
}

export function fail(id: string, name: string, finding: string, fix: string, details?: readonly string[]): CheckResult {
  return { id, name, status: 'fail', finding, fix, ...withDetails(details) };
}

export function buildReport(checks: readonly CheckResult[]): DoctorReport {
  return { healthy: !checks.some((c) => c.status === 'fail'), checks };
}

/** `chmod 600 <path>` and the like: a path as a shell word, quoted only when it must be. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_\-./:@%+=,~]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** "route a", "routes a, b". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}
