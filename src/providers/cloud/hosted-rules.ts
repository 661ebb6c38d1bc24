// The `cloud-hosted` rules from the spec, as pure functions over URLs and model names.

/** Hosted-model host family, with the `.us` / `.cn` sovereign forms. Matched on label boundaries. */
export const TRUSTED_HOSTED_SUFFIXES = [
  'services.ai.azure.com',
  'openai.azure.com',
  'cognitiveservices.azure.com',
  'services.ai.azure.us',
  'openai.azure.us',
  'cognitiveservices.azure.us',
  'services.ai.azure.cn',
  'openai.azure.cn',
  'cognitiveservices.azure.cn',
] as const;

/** Only the messages route of this host family is the legacy compatibility route. */
const LEGACY_COMPAT_SUFFIXES = ['openai.azure.com', 'openai.azure.us', 'openai.azure.cn'];

/** The messages route's legacy compatibility `api-version`. */
export const LEGACY_MESSAGES_API_VERSION = '2025-04-15';

export const CONTEXT_1M_BETA = 'context-1m-2025-08-07';

/** The `anthropic-version` header every messages request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

function hostMatches(hostname: string, suffixes: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  // A dot before the suffix: `evil-openai.azure.com.example` and `xopenai.azure.com` never match.
  return suffixes.some((suffix) => host.endsWith(`.${suffix}`));
}

export function isTrustedHostedHost(hostname: string): boolean {
  return hostMatches(hostname, TRUSTED_HOSTED_SUFFIXES);
}

export type SplitBaseUrl = {
  /** Scheme, host and path, no query, no trailing slash. */
  readonly base: string;
  readonly hostname: string;
  readonly path: string;
  /** The base URL's own query parameters (`api-version` on older resources). */
  readonly query: ReadonlyArray<readonly [string, string]>;
};

export function splitBaseUrl(raw: string): SplitBaseUrl | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const path = url.pathname.replace(/\/+$/, '');
  return {
    base: `${url.protocol}//${url.host}${path}`,
    hostname: url.hostname,
    path,
    query: [...url.searchParams.entries()],
  };
}

/** A messages-route base: a pasted `/v1/messages` or trailing `/v1` goes, the client adds `/v1/messages`. */
export function messagesBasePath(path: string): string {
  return path.replace(/\/v1\/messages$/i, '').replace(/\/v1$/i, '').replace(/\/+$/, '');
}

export function isHostedMessagesRoute(split: SplitBaseUrl): boolean {
  return isTrustedHostedHost(split.hostname) && /(^|\/)anthropic(\/|$)/i.test(split.path);
}

export function isLegacyCompatMessagesRoute(split: SplitBaseUrl): boolean {
  return hostMatches(split.hostname, LEGACY_COMPAT_SUFFIXES) && /(^|\/)anthropic(\/|$)/i.test(split.path);
}

export function withQuery(url: string, query: ReadonlyArray<readonly [string, string]>): string {
  if (query.length === 0) return url;
  return `${url}?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, v])).toString()}`;
}

/** Model families that only the Responses API serves on hosted deployments. */
export function isResponsesOnlyFamily(model: string): boolean {
  return /gpt-5|codex|(^|[^a-z0-9])o[134]([^a-z0-9]|$)/i.test(model);
}

/** Chat-completion models that take `max_completion_tokens` instead of `max_tokens`. */
export function needsMaxCompletionTokens(model: string): boolean {
  return /gpt-4o|gpt-4\.1|gpt-5|(^|[^a-z0-9])o[134]([^a-z0-9]|$)/i.test(model);
}

/** Opus 4.6/4.7 and Sonnet 4.6 class models get the 1M-context beta on hosted messages routes. */
export function wantsContext1mBeta(model: string): boolean {
  return /claude-(opus-4[-.][67]|sonnet-4[-.]6)|(opus|sonnet)-4[-.]6|opus-4[-.]7/i.test(model);
}

/** Joins `anthropic-beta` values, keeping order and dropping repeats. */
export function mergeBetaValues(...values: Array<string | undefined>): string {
  const seen = new Set<string>();
  for (const value of values) {
    for (const part of (value ?? '').split(',')) {
      const token = part.trim();
      if (token) seen.add(token);
    }
  }
  return [...seen].join(',');
}
