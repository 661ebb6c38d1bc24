// Which names hold secrets, and how a secret is shown. One policy for config show, config get,
// problems, logs and (later) API responses.

// Errs towards masking: a non-secret shown as `****` costs little, a leaked key costs a lot.
// `key_env` and `*_tokens` (counts) stay visible: they end in neither pattern.
const SECRET_KEY =
  /(^|[_.-])(api[-_]?key|secrets?|token|password|passwd|credentials?|authorization|cookie|(private|signing|encryption|secret|ssh|access)[-_]?key)$/i;
const SECRET_CAMEL = /(apiKey|Secret|Token|Password|PrivateKey)$/;

export function isSecretKeyName(name: string): boolean {
  return SECRET_KEY.test(name) || SECRET_CAMEL.test(name);
}

/** Not a secret: the documented switch that turns webhook signature checks off (loopback-only; the gateway checks that). */
export const INSECURE_NO_AUTH = 'INSECURE_NO_AUTH';

/**
 * `sk-…abcd` for long values, enough to tell two keys apart; values under 16 characters are
 * fully hidden, since seven characters of a short secret say too much.
 */
export function maskSecret(value: string): string {
  if (value === '' || value === INSECURE_NO_AUTH) return value;
  if (value.length < 16) return '****';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}

/** A deep copy of `data` with every value under a secret-named key masked. */
export function maskSecrets<T>(data: T): T {
  return maskNode(data, false) as T;
}

function maskNode(node: unknown, secret: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => maskNode(item, secret));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, maskNode(v, secret || isSecretKeyName(k))]),
    );
  }
  if (!secret || node === null || node === undefined) return node;
  return maskSecret(typeof node === 'string' ? node : (JSON.stringify(node) ?? ''));
}
