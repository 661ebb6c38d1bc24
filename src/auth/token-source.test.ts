// The token a model call sends: stored, refreshed near expiry (and stored again), or a clear
// error; against the fake authorization server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOAuthServer, type FakeOAuthServer } from '../../test/fakes/oauth-server.js';
import { authStorePath, loadAuthStore, updateAuthStore, withEntry, type AuthEntry } from './store.js';
import { createOAuthTokenSource } from './token-source.js';

let fake: FakeOAuthServer;
let dir: string;
let path: string;
const NOW = Date.parse('2026-11-01T12:00:00.000Z');
beforeAll(async () => {
  fake = await startFakeOAuthServer({ clientIds: ['cid'] });
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.requests.splice(0);
  dir = await mkdtemp(join(tmpdir(), 'iris-token-source-'));
  path = authStorePath({ dir });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function store(oauth: AuthEntry['oauth'], provider = 'openrouter') {
  const entry: AuthEntry = { client_id: 'cid', issuer: fake.url, added_at: new Date(NOW - 1000).toISOString(), ...(oauth ? { oauth } : {}) };
  await updateAuthStore(path, (s) => ({ ok: true, store: withEntry(s, provider, entry), value: 0 }));
}

/** A refresh token the fake knows: issued by a real (device) grant. */
async function liveRefreshToken(): Promise<string> {
  fake.issueRefreshTokens = true;
  const res = await fetch(`${fake.url}/oauth/device/code`, { method: 'POST', body: new URLSearchParams({ client_id: 'cid' }) });
  const device = (await res.json()) as { device_code: string; user_code: string };
  fake.approve(device.user_code);
  const tokens = await fetch(`${fake.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: 'cid' }),
  });
  fake.requests.splice(0);
  return ((await tokens.json()) as { refresh_token: string }).refresh_token;
}

const source = () => createOAuthTokenSource({ path, now: () => NOW });
const iso = (ms: number) => new Date(NOW + ms).toISOString();

describe('createOAuthTokenSource', () => {
  it('a token with time left is used as stored, with no request', async () => {
    await store({ access_token: 'at-stored', expires_at: iso(3_600_000), obtained_at: iso(0) });
    expect(await source().getToken('openrouter')).toEqual({ ok: true, token: 'at-stored' });
    expect(fake.requests).toEqual([]);
  });

  it('within two minutes of expiry: refreshes first, stores the new tokens, and sends the new one', async () => {
    const refresh = await liveRefreshToken();
    await store({ access_token: 'at-old', refresh_token: refresh, expires_at: iso(60_000), obtained_at: iso(-3_600_000) });
    const result = await source().getToken('openrouter');
    const issued = fake.issued.at(-1);
    expect(result).toEqual({ ok: true, token: issued?.accessToken });
    expect(fake.tokenRequests('refresh_token').map((r) => r.form)).toEqual([{ grant_type: 'refresh_token', refresh_token: refresh, client_id: 'cid' }]);
    const saved = await loadAuthStore(path);
    expect(saved.ok && saved.store.providers.openrouter?.oauth).toEqual({
      access_token: issued?.accessToken,
      refresh_token: issued?.refreshToken,
      expires_at: iso(3_600_000),
      obtained_at: iso(0),
    });
    // The next call uses the stored new token without asking again.
    expect(await source().getToken('openrouter')).toEqual({ ok: true, token: issued?.accessToken });
    expect(fake.tokenRequests('refresh_token')).toHaveLength(1);
  });

  it('a refused refresh is an auth error telling the user to sign in again; the file is left as it was', async () => {
    await store({ access_token: 'at-old', refresh_token: 'rt-revoked', expires_at: iso(-1), obtained_at: iso(-3_600_000) });
    const result = await source().getToken('openrouter');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'auth',
        message: 'openrouter: the OAuth token could not be refreshed (invalid_grant: the refresh token is invalid or revoked): run iris auth login openrouter again',
      },
    });
    const saved = await loadAuthStore(path);
    expect(saved.ok && saved.store.providers.openrouter?.oauth?.access_token).toBe('at-old');
  });

  it('expired with nothing to refresh with, and never signed in: clear errors', async () => {
    await store({ access_token: 'at-old', expires_at: iso(-1), obtained_at: iso(-3_600_000) });
    expect(await source().getToken('openrouter')).toEqual({
      ok: false,
      error: { code: 'auth', message: 'openrouter: the OAuth sign-in has expired: run iris auth login openrouter again' },
    });
    expect(await source().getToken('openai')).toEqual({
      ok: false,
      error: { code: 'not_configured', message: 'openai: not signed in: run iris auth login openai' },
    });
  });
});
