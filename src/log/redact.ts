// Keeping secrets out of log lines: values under secret-named keys, sensitive HTTP headers, and
// credential-shaped substrings of free text (a Bearer token inside an error message, say).
import { isSecretKeyName } from '../config/secrets-policy.js';

export const REDACTED = '[redacted]';

const SENSITIVE_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'api-key',
  'x-api-key',
  'x-hub-signature',
  'x-hub-signature-256',
  'x-alt-forge-token',
  'x-gitlab-token',
  'private-token',
  'x-service-session-token',
]);

const TEXT_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${REDACTED}@`], // user:password@ in URLs
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${REDACTED}`],
  [/\bglpat-[A-Za-z0-9_.-]{16,}/g, REDACTED], // GitLab personal access tokens
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, REDACTED], // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh
  [/\bgithub_pat_[A-Za-z0-9_]{30,}/g, REDACTED], // GitHub fine-grained personal access tokens
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack bot, user and legacy tokens
  [/\bxapp-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack app-level tokens (Socket Mode)
  [/\b\d{6,12}:AA[A-Za-z0-9_-]{30,}/g, REDACTED], // Telegram bot tokens
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g, REDACTED], // JWTs
  [
    /([?&](?:api[-_]?key|key|token|access_token|refresh_token|id_token|client_secret|password|secret|sig|code)=)[^&#\s]+/gi,
    `$1${REDACTED}`,
  ],
];

export function redactText(text: string): string {
  return TEXT_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** A deep copy with every string passed through `redactText` (keys untouched). */
export function redactStrings<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactStrings) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)])) as T;
  }
  return value;
}

function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADERS.has(name.toLowerCase()) || isSecretKeyName(name);
}

/** A copy of `value` that is safe to log. Depth-bounded, and safe on cycles. */
export function redactValue(value: unknown, depth = 0, ancestors = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8 || ancestors.has(value)) return '[…]';
  // Only the current path counts as a cycle: the same object twice side by side is logged twice.
  ancestors.add(value);
  try {
    return redactObject(value, depth, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function redactObject(value: object, depth: number, seen: WeakSet<object>): unknown {
  if (value instanceof Error) {
    return { type: value.name, message: redactText(value.message) };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isSecretKeyName(key) && item !== '' && item !== null && item !== undefined) out[key] = REDACTED;
    else if (key.toLowerCase() === 'headers' && item !== null && typeof item === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(item as Record<string, unknown>).map(([h, v]) => [h, isSensitiveHeader(h) ? REDACTED : redactValue(v, depth + 2, seen)]),
      );
    } else out[key] = redactValue(item, depth + 1, seen);
  }
  return out;
}
