// The provider catalog: who we can talk to, how (key variable, default base URL, api mode), and a
// short curated list of agentic models per provider with context lengths and prices (USD per
// million tokens) where they are published. `cloud-hosted` and `custom` list no models: their
// models are the user's own deployments and servers.
import type { ApiMode } from './wire/types.js';
import type { ProviderId } from '../domain/provider-ids.js';

export type ModelPrice = {
  readonly input: number;
  readonly output: number;
  /** Cached input (prompt-cache reads); absent where the provider publishes none. */
  readonly cachedInput?: number;
  /**
   * Input written to the prompt cache (Anthropic: 1.25× input for the default 5-minute cache);
   * absent where the provider charges none or reports none (priced as input then).
   */
  readonly cacheWrite?: number;
};

export type CatalogModel = {
  readonly id: string;
  readonly contextLength: number;
  /** Null: the price is not published or not known to this build (cost stays unknown, not 0). */
  readonly price: ModelPrice | null;
  readonly capabilities: readonly ('tools' | 'vision' | 'reasoning')[];
  /** Set where the model needs another wire format than the provider's default. */
  readonly apiMode?: ApiMode;
};

/** Where a provider's subscription sign-in (OAuth 2.0 device authorization grant) happens. */
export type ProviderOAuth = {
  /** The authorization server's base URL. */
  readonly issuer: string;
  /** Joined to the issuer: the device authorization endpoint (RFC 8628 §3.1). */
  readonly deviceAuthorizationPath: string;
  /** Joined to the issuer: the token endpoint. */
  readonly tokenPath: string;
  readonly scope: string;
};

export type ProviderSpec = {
  readonly id: ProviderId;
  readonly name: string;
  /** The variable holding the API key; `model.key_env` names another. */
  readonly keyEnv?: string;
  /** A variable that may hold the base URL. */
  readonly baseUrlEnv?: string;
  /** '' where the user must supply one. */
  readonly defaultBaseUrl: string;
  readonly apiMode: ApiMode;
  /** What discovery and an aux slot with a provider but no model use; none for deployments. */
  readonly defaultModel?: string;
  readonly models: readonly CatalogModel[];
  /** The subscription sign-in, where the provider publishes one; `iris auth add --issuer` supplies or overrides it. */
  readonly oauth?: ProviderOAuth;
};

const TOOLS_VISION = ['tools', 'vision'] as const;
const TOOLS_VISION_REASONING = ['tools', 'vision', 'reasoning'] as const;

const ANTHROPIC_MODELS: readonly CatalogModel[] = [
  { id: 'claude-opus-4-7', contextLength: 200_000, price: null, capabilities: TOOLS_VISION_REASONING },
  { id: 'claude-opus-4-6', contextLength: 200_000, price: null, capabilities: TOOLS_VISION_REASONING },
  { id: 'claude-sonnet-4-6', contextLength: 200_000, price: null, capabilities: TOOLS_VISION_REASONING },
  {
    id: 'claude-opus-4-5',
    contextLength: 200_000,
    price: { input: 5, output: 25, cachedInput: 0.5, cacheWrite: 6.25 },
    capabilities: TOOLS_VISION_REASONING,
  },
  {
    id: 'claude-sonnet-4-5',
    contextLength: 200_000,
    price: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    capabilities: TOOLS_VISION_REASONING,
  },
  {
    id: 'claude-haiku-4-5',
    contextLength: 200_000,
    price: { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 },
    capabilities: TOOLS_VISION_REASONING,
  },
];

const OPENAI_MODELS: readonly CatalogModel[] = [
  { id: 'gpt-5.1', contextLength: 400_000, price: { input: 1.25, output: 10, cachedInput: 0.125 }, capabilities: TOOLS_VISION_REASONING },
  {
    id: 'gpt-5.1-codex',
    contextLength: 400_000,
    price: { input: 1.25, output: 10, cachedInput: 0.125 },
    capabilities: TOOLS_VISION_REASONING,
    apiMode: 'codex_responses',
  },
  { id: 'gpt-5', contextLength: 400_000, price: { input: 1.25, output: 10, cachedInput: 0.125 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'gpt-5-mini', contextLength: 400_000, price: { input: 0.25, output: 2, cachedInput: 0.025 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'gpt-4.1', contextLength: 1_047_576, price: { input: 2, output: 8, cachedInput: 0.5 }, capabilities: TOOLS_VISION },
  { id: 'gpt-4o', contextLength: 128_000, price: { input: 2.5, output: 10, cachedInput: 1.25 }, capabilities: TOOLS_VISION },
  { id: 'o3', contextLength: 200_000, price: { input: 2, output: 8, cachedInput: 0.5 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'o4-mini', contextLength: 200_000, price: { input: 1.1, output: 4.4, cachedInput: 0.275 }, capabilities: TOOLS_VISION_REASONING },
];

const OPENROUTER_MODELS: readonly CatalogModel[] = [
  { id: 'anthropic/claude-sonnet-4.5', contextLength: 200_000, price: { input: 3, output: 15, cachedInput: 0.3 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'anthropic/claude-opus-4.5', contextLength: 200_000, price: { input: 5, output: 25, cachedInput: 0.5 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'anthropic/claude-haiku-4.5', contextLength: 200_000, price: { input: 1, output: 5, cachedInput: 0.1 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'openai/gpt-5', contextLength: 400_000, price: { input: 1.25, output: 10, cachedInput: 0.125 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'openai/gpt-5-mini', contextLength: 400_000, price: { input: 0.25, output: 2, cachedInput: 0.025 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'google/gemini-2.5-pro', contextLength: 1_048_576, price: { input: 1.25, output: 10 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'google/gemini-2.5-flash', contextLength: 1_048_576, price: { input: 0.3, output: 2.5 }, capabilities: TOOLS_VISION_REASONING },
  { id: 'qwen/qwen3-coder', contextLength: 262_144, price: null, capabilities: ['tools'] },
  { id: 'moonshotai/kimi-k2', contextLength: 131_072, price: null, capabilities: ['tools'] },
];

export const PROVIDERS: readonly ProviderSpec[] = [
  {
    id: 'openrouter',
    name: 'OpenRouter',
    keyEnv: 'OPENROUTER_API_KEY',
    baseUrlEnv: 'OPENROUTER_BASE_URL',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    apiMode: 'chat_completions',
    defaultModel: 'anthropic/claude-sonnet-4.5',
    models: OPENROUTER_MODELS,
  },
  {
    id: 'openai',
    name: 'OpenAI',
    keyEnv: 'OPENAI_API_KEY',
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    apiMode: 'chat_completions',
    defaultModel: 'gpt-5.1',
    models: OPENAI_MODELS,
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com',
    apiMode: 'anthropic_messages',
    defaultModel: 'claude-sonnet-4-5',
    models: ANTHROPIC_MODELS,
  },
  {
    id: 'cloud-hosted',
    name: 'Cloud-hosted models',
    keyEnv: 'CLOUD_HOSTED_API_KEY',
    baseUrlEnv: 'CLOUD_HOSTED_BASE_URL',
    defaultBaseUrl: '',
    apiMode: 'chat_completions',
    models: [],
  },
  {
    id: 'custom',
    name: 'Custom endpoint (OpenAI-compatible)',
    defaultBaseUrl: '',
    apiMode: 'chat_completions',
    models: [],
  },
];

export function providerSpec(id: string): ProviderSpec | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** Context lengths by family, for models the catalog does not list (deployments, new releases). */
const FAMILY_CONTEXT: ReadonlyArray<readonly [RegExp, number]> = [
  [/claude/i, 200_000],
  [/gpt-5/i, 400_000],
  [/gpt-4\.1/i, 1_047_576],
  [/gpt-4o/i, 128_000],
  [/(^|[/-])o[134](-|$)/i, 200_000],
  [/gemini-(2|3)/i, 1_048_576],
  [/llama-4/i, 1_048_576],
  [/deepseek/i, 128_000],
];

export const FALLBACK_CONTEXT_LENGTH = 128_000;

export function findCatalogModel(providerId: string, modelId: string): CatalogModel | undefined {
  const wanted = modelId.toLowerCase();
  return providerSpec(providerId)?.models.find((m) => m.id.toLowerCase() === wanted);
}

/** The catalog's number, else the family's, else a conservative default. */
export function contextLengthFor(providerId: string, modelId: string): number {
  const known = findCatalogModel(providerId, modelId);
  if (known) return known.contextLength;
  return FAMILY_CONTEXT.find(([pattern]) => pattern.test(modelId))?.[1] ?? FALLBACK_CONTEXT_LENGTH;
}

export function priceFor(providerId: string, modelId: string): ModelPrice | null {
  return findCatalogModel(providerId, modelId)?.price ?? null;
}

/**
 * Cost in USD of one call; null when the price is unknown (never 0 by default). Input tokens are
 * priced by kind: read from the prompt cache, written to it, and the rest.
 */
export function costOf(
  price: ModelPrice | null,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number; cacheWriteInputTokens?: number },
): number | null {
  if (!price) return null;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - usage.cachedInputTokens - cacheWrite);
  const cachedRate = price.cachedInput ?? price.input;
  const writeRate = price.cacheWrite ?? price.input;
  return (plain * price.input + usage.cachedInputTokens * cachedRate + cacheWrite * writeRate + usage.outputTokens * price.output) / 1_000_000;
}

/**
 * Whether a main model can be sent images itself: only models the catalog lists with the `vision`
 * capability. Deployments and unlisted models are not guessed at: their images go through the
 * vision slot, which costs a call but never sends an image to a model that rejects it.
 */
export function takesImages(providerId: string, modelId: string): boolean {
  return findCatalogModel(providerId, modelId)?.capabilities.includes('vision') ?? false;
}
