// The dashboard password, stored only as a scrypt hash (`IRIS_DASHBOARD_PASSWORD_HASH` in .env):
// `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<hash, base64url>`. The parameters travel with the
// hash, so they can be raised later without breaking stored ones. Verifying always runs the full
// derivation and compares in constant time: a wrong password costs the same whether it was close
// or not, and whether the stored value was well-formed or not.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const PASSWORD_HASH_ENV = 'IRIS_DASHBOARD_PASSWORD_HASH';

/** About 60 ms and 32 MiB per derivation on a small server: slow for a guesser, fine for a person. */
const DEFAULT_PARAMS = { log2N: 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Shortest password `iris dashboard password` accepts. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longest accepted (scrypt takes any length; a megabyte "password" is only a way to burn CPU). */
export const MAX_PASSWORD_LENGTH = 1024;

type Params = { readonly log2N: number; readonly r: number; readonly p: number };

function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.log2N, r: params.r, p: params.p, maxmem: 256 * 2 ** params.log2N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Why `password` cannot be the dashboard password, or undefined. Pure. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password may have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (/[\r\n\0]/.test(password)) return 'the password cannot contain line breaks or NUL';
  return undefined;
}

export async function hashPassword(password: string, params: Params = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.log2N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

type Parsed = { readonly params: Params; readonly salt: Buffer; readonly key: Buffer };

/** The stored hash's parts, or undefined when it is not one of ours (bounded parameters: a hostile .env cannot ask for 64 GiB). */
export function parsePasswordHash(stored: string): Parsed | undefined {
  const match = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{40,88})$/.exec(stored.trim());
  if (!match) return undefined;
  const params = { log2N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (params.log2N < 10 || params.log2N > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return undefined;
  const key = Buffer.from(match[5]!, 'base64url');
  if (key.length !== KEY_BYTES) return undefined;
  return { params, salt: Buffer.from(match[4]!, 'base64url'), key };
}

const DUMMY_SALT = Buffer.alloc(SALT_BYTES);

/** True when `password` matches `stored`. A malformed `stored` never matches, after the same work. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  const candidate = password.length > MAX_PASSWORD_LENGTH ? '' : password;
  const key = await derive(candidate, parsed?.salt ?? DUMMY_SALT, parsed?.params ?? DEFAULT_PARAMS);
  const expected = parsed?.key ?? Buffer.alloc(KEY_BYTES);
  return timingSafeEqual(key, expected) && parsed !== undefined && password.length <= MAX_PASSWORD_LENGTH;
}
