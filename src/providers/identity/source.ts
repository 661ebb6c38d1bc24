// One link of the chain: what every credential source looks like from the chain's side, and how
// a message from outside (an SDK error, an endpoint's error body, a CLI's stderr) is made safe to
// show: secrets we know of are cut out by value, credential-shaped text by pattern.
import { redactText, REDACTED } from '../../log/redact.js';
import type { TokenSource } from './types.js';

export type SourceOutcome =
  | { readonly kind: 'token'; readonly token: string; readonly expiresOnMs: number }
  /** Not configured, or not available on this machine: the chain moves on; not a failure. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  /** Configured and tried, and it did not produce a token. */
  | { readonly kind: 'failed'; readonly reason: string };

export type SourceContext = {
  readonly scope: string;
  readonly resource: string;
  /** Fires on the chain's timeout or when every caller has given up. */
  readonly signal: AbortSignal;
  /** Milliseconds left of the chain's overall budget (a child process's timeout). */
  readonly remainingMs: () => number;
  readonly now: () => number;
};

export type CredentialSource = {
  readonly source: TokenSource;
  getToken(context: SourceContext): Promise<SourceOutcome>;
};

export const unavailable = (reason: string): SourceOutcome => ({ kind: 'unavailable', reason });
export const failed = (reason: string): SourceOutcome => ({ kind: 'failed', reason });

const MAX_MESSAGE_CHARS = 300;

/**
 * Text from outside, fit for an error message: known secret values removed, credential-shaped
 * substrings redacted, whitespace collapsed (SDK messages span lines) and the length capped.
 */
export function safeMessage(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is removed whole. Very short values are left
  // alone: cutting every "ab" out of a message would wreck it and hide nothing.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  out = redactText(out).replace(/\s+/g, ' ').trim();
  return out.length > MAX_MESSAGE_CHARS ? `${out.slice(0, MAX_MESSAGE_CHARS - 1)}…` : out;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : 'unknown error';
}
