// Turning what a user types for a model (`/model fast`, `--model sonnet`, a fallback string) into
// a provider and model. One function, so every caller agrees on the precedence:
// model_aliases > model.aliases > built-in short names > "<provider>/<model>" > a bare model id.
import { isProviderId } from '../domain/provider-ids.js';
import { BUILTIN_SHORT_NAMES } from '../domain/short-names.js';
import type { Config } from './schema.js';

export type ModelRefSource = 'model_aliases' | 'model.aliases' | 'builtin' | 'provider/model' | 'model';

export type ModelRef = {
  /** Undefined: the model is meant for the currently selected provider. */
  readonly provider?: string;
  readonly model: string;
  readonly base_url?: string;
  readonly source: ModelRefSource;
};

function findCaseInsensitive<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  if (!table) return undefined;
  const wanted = name.toLowerCase();
  const key = Object.keys(table).find((k) => k.toLowerCase() === wanted);
  return key === undefined ? undefined : table[key];
}

/** Splits `"<provider>/<model>"` on the first slash. */
export function splitProviderModel(ref: string): { provider: string; model: string } | undefined {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

export function resolveModelRef(
  input: string,
  config: Pick<Readonly<Config>, 'model' | 'model_aliases'>,
): ModelRef {
  const name = input.trim();
  const userAlias = findCaseInsensitive(config.model_aliases, name);
  if (userAlias) {
    return {
      provider: userAlias.provider,
      model: userAlias.model,
      ...(userAlias.base_url ? { base_url: userAlias.base_url } : {}),
      source: 'model_aliases',
    };
  }
  const shortAlias =
    typeof config.model === 'object' ? findCaseInsensitive(config.model.aliases, name) : undefined;
  const split = shortAlias ? splitProviderModel(shortAlias) : undefined;
  if (split) return { ...split, source: 'model.aliases' };

  const builtin = findCaseInsensitive(BUILTIN_SHORT_NAMES, name);
  if (builtin) return { ...builtin, source: 'builtin' };

  // Aggregator model ids contain a slash too (`anthropic/claude-…`); only a known provider id
  // before the slash makes it a provider reference.
  const literal = splitProviderModel(name);
  const provider = literal?.provider.toLowerCase();
  if (literal && provider && isProviderId(provider)) {
    return { provider, model: literal.model, source: 'provider/model' };
  }
  return { model: name, source: 'model' };
}
