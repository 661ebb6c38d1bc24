// The picker's filter: a query narrows by provider name, slug or model id. A provider whose name or
// slug matches keeps all its models; otherwise it keeps the models whose id matches, and drops out
// when none does.
import type { ProviderOption } from './api-types.js';

export type FilteredProvider = {
  readonly provider: ProviderOption;
  readonly models: readonly string[];
  /** The provider itself matched (so a free-text provider stays offered). */
  readonly providerMatch: boolean;
};

export function normalizeQuery(query: string): string {
  return query.trim().toLowerCase();
}

export function filterProviders(providers: readonly ProviderOption[], query: string): FilteredProvider[] {
  const q = normalizeQuery(query);
  return providers.flatMap((provider) => {
    const providerMatch = q === '' || provider.slug.toLowerCase().includes(q) || provider.name.toLowerCase().includes(q);
    const models = providerMatch ? provider.models : provider.models.filter((id) => id.toLowerCase().includes(q));
    return providerMatch || models.length > 0 ? [{ provider, models, providerMatch }] : [];
  });
}

/** Keeps the chosen provider while it is still listed; otherwise the first one listed. */
export function chooseProvider(visible: readonly FilteredProvider[], current: string | undefined): string | undefined {
  if (current !== undefined && visible.some((v) => v.provider.slug === current)) return current;
  return visible[0]?.provider.slug;
}
