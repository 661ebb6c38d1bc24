// Which names hold secrets, and how a secret is shown. One policy for config show, config get,
// problems, logs and (later) API responses.

const SECRET_KEY = /(^|[_.-])(api_?key|secret|token|password|passwd|credentials?|private_?key)$/i;
const SECRET_CAMEL = /(apiKey|Secret|Token|Password)$/;

export function isSecretKeyName(name: string): boolean {
  return SECRET_KEY.test(name) || SECRET_CAMEL.test(name);
}

/** Not a secret: the documented switch that turns webhook signature checks off. */
export const INSECURE_NO_AUTH = 'INSECURE_NO_AUTH';

/** `sk-…abcd` for long values; short ones are fully hidden, since a few characters say too much. */
export function maskSecret(value: string): string {
  if (value === '' || value === INSECURE_NO_AUTH) return value;
  if (value.length < 12) return '****';
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
  return maskSecret(String(node));
}
