import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authStorePath, loadAuthStore, parseAuthStore, updateAuthStore, withEntry } from './store.js';
import { loadOAuthView, oauthViewOf } from './view.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'iris-auth-store-'));
  path = authStorePath({ dir });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const ENTRY = { client_id: 'cid', added_at: '2026-11-01T12:00:00.000Z' };

describe('auth.json', () => {
  it('a missing or empty file is an empty store', async () => {
    expect(await loadAuthStore(path)).toEqual({ ok: true, store: { providers: {} } });
    expect(parseAuthStore('  \n', path)).toEqual({ ok: true, store: { providers: {} } });
  });

  it('writes 0600, atomically, and reads back what it wrote', async () => {
    const result = await updateAuthStore(path, (store) => ({ ok: true, store: withEntry(store, 'openrouter', ENTRY), value: 1 }));
    expect(result).toEqual({ ok: true, value: 1 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await loadAuthStore(path)).toEqual({ ok: true, store: { providers: { openrouter: ENTRY } } });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, providers: { openrouter: ENTRY } });
  });

  it('an edit that returns no store writes nothing', async () => {
    await updateAuthStore(path, () => ({ ok: true, value: 0 }));
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    ['not JSON', '{nope', `${'PATH'} is not valid JSON: fix it, or remove it and run iris auth add again`],
    ['a wrong version', '{"version":2,"providers":{}}', 'PATH is invalid (version: '],
    ['an entry without a client id', `{"version":1,"providers":{"openrouter":{"added_at":"${ENTRY.added_at}"}}}`, 'PATH is invalid (providers.openrouter.client_id: '],
    ['a token without expires_at', `{"version":1,"providers":{"openrouter":{"client_id":"c","added_at":"${ENTRY.added_at}","oauth":{"access_token":"secret-at","obtained_at":"${ENTRY.added_at}"}}}}`, 'PATH is invalid (providers.openrouter.oauth.expires_at: '],
  ])('a broken file (%s) is refused with its path, and never overwritten', async (_name, text, message) => {
    await writeFile(path, text, { mode: 0o600 });
    const loaded = await loadAuthStore(path);
    expect(loaded.ok).toBe(false);
    const error = (loaded as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('parse_error');
    expect(error.message.startsWith(message.replace('PATH', path))).toBe(true);
    expect(error.message).not.toContain('secret-at');
    const update = await updateAuthStore(path, (store) => ({ ok: true, store: withEntry(store, 'x', ENTRY), value: 1 }));
    expect(update.ok).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(text);
    const view = await loadOAuthView({ dir });
    expect(view.view.size).toBe(0);
    expect(view.problem).toContain(path);
  });

  it('the view: who has tokens, until when, usable or not — never a token', () => {
    const now = Date.parse('2026-11-01T12:00:00.000Z');
    const oauth = (expires: string | null, refresh?: string) => ({
      access_token: 'at',
      ...(refresh ? { refresh_token: refresh } : {}),
      expires_at: expires,
      obtained_at: ENTRY.added_at,
    });
    const view = oauthViewOf(
      {
        providers: {
          openrouter: { ...ENTRY, oauth: oauth('2026-11-01T13:00:00.000Z') },
          openai: { ...ENTRY, oauth: oauth('2026-11-01T11:00:00.000Z', 'rt') },
          anthropic: { ...ENTRY, oauth: oauth('2026-11-01T11:00:00.000Z') },
          other: ENTRY,
        },
      },
      now,
    );
    expect(Object.fromEntries(view)).toEqual({
      openrouter: { expiresAt: '2026-11-01T13:00:00.000Z', refreshable: false, usable: true },
      openai: { expiresAt: '2026-11-01T11:00:00.000Z', refreshable: true, usable: true },
      anthropic: { expiresAt: '2026-11-01T11:00:00.000Z', refreshable: false, usable: false },
    });
  });
});
