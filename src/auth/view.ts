// Which providers have a usable OAuth sign-in, as plain data for the pure code that decides who is
// authenticated (routing, the dashboard's picker, `iris auth`, `iris doctor`): no token in it,
// only whether one is there and until when. Loaded once where config and env are loaded.
import type { HomePaths } from '../config/home.js';
import { decideTokenUse } from './decide.js';
import { authStorePath, loadAuthStore, type AuthStore } from './store.js';

export type OAuthState = {
  /** ISO time, or null when the server gave no lifetime. */
  readonly expiresAt: string | null;
  /** A refresh token is stored. */
  readonly refreshable: boolean;
  /** The token can be sent now, or after a refresh. */
  readonly usable: boolean;
};

/** Providers with stored OAuth tokens (usable or expired). */
export type OAuthView = ReadonlyMap<string, OAuthState>;

export const NO_OAUTH: OAuthView = new Map();

export function oauthViewOf(store: AuthStore, nowMs: number): OAuthView {
  const view = new Map<string, OAuthState>();
  for (const [provider, entry] of Object.entries(store.providers)) {
    if (!entry.oauth) continue;
    view.set(provider, {
      expiresAt: entry.oauth.expires_at,
      refreshable: entry.oauth.refresh_token !== undefined,
      usable: decideTokenUse(entry, nowMs).kind !== 'none',
    });
  }
  return view;
}

export function hasUsableOAuth(view: OAuthView, provider: string): boolean {
  return view.get(provider)?.usable === true;
}

/** The view of the home's auth.json; a broken file reads as no sign-in, with the problem to report. */
export async function loadOAuthView(paths: Pick<HomePaths, 'dir'>, nowMs = Date.now()): Promise<{ view: OAuthView; problem?: string }> {
  const loaded = await loadAuthStore(authStorePath(paths));
  if (!loaded.ok) return { view: NO_OAUTH, problem: `${loaded.error.message} (OAuth sign-ins are ignored until then)` };
  return { view: oauthViewOf(loaded.store, nowMs) };
}
