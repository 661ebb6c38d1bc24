// The listeners' config.yaml and store URL for bench:scale.

export type Backend = 'sqlite' | 'postgres';

/** The URL of one schema of the database at `url` (created beforehand: a missing one would fall back to public). */
export function schemaUrl(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/** A listener's config: one route that logs, the rate limit out of the way, the store when shared. */
export function scaleConfig(secret: string, storeUrl: string | undefined): string {
  const q = JSON.stringify;
  return `# bench:scale (temporary)
model:
  provider: openai
  default: bench-m
${storeUrl === undefined ? '' : `store:\n  url: ${q(storeUrl)}\n`}platforms:
  webhook:
    enabled: true
    extra:
      host: 127.0.0.1
      port: 0
      secret: ${q(secret)}
      rate_limit: 100000000
      routes:
        pr:
          events: [pull_request]
          prompt: ${q('Review pull request #{pull_request.number} in {repository.full_name}.')}
          deliver: log
`;
}

/** The machine's CPU time so far, in clock ticks: all of it and the idle part (/proc/stat). */
export function machineTicks(read: (path: string) => string): { total: number; idle: number } {
  const fields = read('/proc/stat').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the idle part.
  const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
  return { total, idle: fields[3]! + fields[4]! };
}

/** The CPU ticks of every process whose command line starts `postgres` (the server and its backends). */
export function postgresTicks(listPids: () => number[], ticksOf: (pid: number) => number): number {
  let sum = 0;
  for (const pid of listPids()) {
    try {
      sum += ticksOf(pid);
    } catch {
      // a backend that ended between the listing and the read
    }
  }
  return sum;
}
