// Who may talk to the agent on a platform (DECISIONS § Chat platforms): denied by default; the
// users in `allowed_users` or `owners`, those approved by pairing, or anyone with `allow_all_users`.
// Anyone else starts no run: in a direct message they are given a pairing code, in a group nothing.
// Pure.

export type AccessPolicy = {
  readonly allowedUsers: readonly string[];
  /** Owners may run the owner-only commands; listing someone there lets them in as well. */
  readonly owners: readonly string[];
  readonly allowAll: boolean;
};

export type AccessDecision = 'allow' | 'pair' | 'ignore';

export function decideAccess(policy: AccessPolicy, user: { readonly userId: string; readonly isDirect: boolean }, approved: boolean): AccessDecision {
  if (policy.allowAll || approved || policy.allowedUsers.includes(user.userId) || policy.owners.includes(user.userId)) return 'allow';
  return user.isDirect ? 'pair' : 'ignore';
}

/** Codes people read out and type: no 0/O or 1/I/L to confuse. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_TTL_MS = 60 * 60_000;

/** `randomInt(n)` gives 0 ≤ i < n (crypto.randomInt in production). */
export function newPairingCode(randomInt: (bound: number) => number): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Codes are shown in upper case; one typed in lower case (read off a phone) is the same code. */
export function normalisePairingCode(text: string): string {
  return text.trim().toUpperCase();
}

export function pairingReply(platform: string, code: string): string {
  return [
    'This agent only talks to people its owner has let in.',
    `Your pairing code is ${code} (valid for one hour). Ask the owner to run:`,
    `iris pairing approve ${platform} ${code}`,
  ].join('\n');
}
