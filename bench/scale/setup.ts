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
