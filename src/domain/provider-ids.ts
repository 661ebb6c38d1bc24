// Provider ids known to this build. The full catalog (models, prices, context lengths) arrives
// with the provider layer; names that only need the ids read them from here.

export const PROVIDER_IDS = ['openrouter', 'openai', 'anthropic', 'cloud-hosted', 'custom'] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

/** The aggregator: the default route and the first stop of the discovery chain. */
export const AGGREGATOR: ProviderId = 'openrouter';

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}
