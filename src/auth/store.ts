// The OAuth credentials store, $IRIS_HOME/auth.json: per provider the registered client id, the
// authorization server (when not the catalog's), and the tokens of a completed login. Owner-only
// (it holds tokens), written atomically under a lock like config.yaml; validated on every read,
// and a broken file is refused with its path rather than silently emptied by the next write.
import { join } from 'node:path';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../config/atomic-write.js';
import { withFileLock } from '../config/file-lock.js';
import type { HomePaths } from '../config/home.js';
import { readTextIfPresent } from '../config/read-optional.js';
import { errnoMessage, fail, type Result } from '../config/result.js';

export const AUTH_FILE = 'auth.json';
const FORMAT_VERSION = 1;

export function authStorePath(paths: Pick<HomePaths, 'dir'>): string {
  return join(paths.dir, AUTH_FILE);
}

const tokensSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  refresh_token: z.optional(z.string().check(z.minLength(1))),
  /** ISO time; null when the server gave no `expires_in` (used until it is rejected). */
  expires_at: z.nullable(z.iso.datetime()),
  scope: z.optional(z.string()),
  obtained_at: z.iso.datetime(),
});

const entrySchema = z.object({
  client_id: z.string().check(z.minLength(1)),
  /** The authorization server's base URL when given with --issuer (else the catalog's). */
  issuer: z.optional(z.url()),
  /** The scope asked for when given with --scope (else the catalog's). */
  scope: z.optional(z.string()),
  added_at: z.iso.datetime(),
  oauth: z.optional(tokensSchema),
});

const fileSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  providers: z.record(z.string(), entrySchema),
});

export type OAuthTokens = z.infer<typeof tokensSchema>;
export type AuthEntry = z.infer<typeof entrySchema>;
export type AuthStore = { readonly providers: Readonly<Record<string, AuthEntry>> };

export const EMPTY_STORE: AuthStore = Object.freeze({ providers: Object.freeze({}) });

/** The file's text to a store; a missing or empty file is an empty store. */
export function parseAuthStore(text: string | undefined, path: string): Result<{ store: AuthStore }> {
  if (text === undefined || text.trim() === '') return { ok: true, store: EMPTY_STORE };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('parse_error', `${path} is not valid JSON: fix it, or remove it and run iris auth add again`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') || 'the file';
    return fail('parse_error', `${path} is invalid (${where}: ${issue?.message ?? 'invalid'}): fix it, or remove it and run iris auth add again`);
  }
  return { ok: true, store: { providers: parsed.data.providers } };
}

export function serializeAuthStore(store: AuthStore): string {
  return `${JSON.stringify({ version: FORMAT_VERSION, providers: store.providers }, null, 2)}\n`;
}

export async function loadAuthStore(path: string): Promise<Result<{ store: AuthStore }>> {
  try {
    return parseAuthStore(await readTextIfPresent(path), path);
  } catch (err) {
    return fail('io_error', `cannot read ${path}: ${errnoMessage(err)}`);
  }
}

/** An edit's answer: the new store to write (or undefined to write nothing) and a value to return. */
export type StoreEdit<T> = Result<{ store?: AuthStore; value: T }>;

/** Changes the store under the lock, from the freshest file; a broken file is never overwritten. */
export async function updateAuthStore<T>(path: string, edit: (current: AuthStore) => StoreEdit<T> | Promise<StoreEdit<T>>): Promise<Result<{ value: T }>> {
  try {
    const outcome = await withFileLock(`${path}.lock`, async (): Promise<Result<{ value: T }>> => {
      const current = parseAuthStore(await readTextIfPresent(path), path);
      if (!current.ok) return current;
      const edited = await edit(current.store);
      if (!edited.ok) return edited;
      if (edited.store) await writeFileAtomic(path, serializeAuthStore(edited.store), 0o600);
      return { ok: true, value: edited.value };
    });
    if (outcome.ok) return outcome.value;
    return fail('lock_timeout', `${path} is locked by another process (${outcome.holder || 'unknown'}); try again`);
  } catch (err) {
    return fail('io_error', `cannot write ${path}: ${errnoMessage(err)}`);
  }
}

export function withEntry(store: AuthStore, provider: string, entry: AuthEntry | undefined): AuthStore {
  const providers: Record<string, AuthEntry> = { ...store.providers };
  if (entry) providers[provider] = entry;
  else delete providers[provider];
  return { providers };
}
