// The OAuth access token for a model call: read auth.json, use the stored token while it has more
// than two minutes left, else refresh it first (under the store's lock, so that two processes do
// not both spend the refresh token) and store the new tokens. A failed refresh is a clear error
// that tells the user to sign in again. The decision is decideTokenUse; this is the I/O around it.
import { decideTokenUse, tokensFromAnswer } from './decide.js';
import { requestToken, type FetchLike } from './oauth-http.js';
import { resolveAuthServer } from './server.js';
import { loadAuthStore, updateAuthStore, withEntry } from './store.js';

export type OAuthTokenResult =
  | { readonly ok: true; readonly token: string }
  | { readonly ok: false; readonly error: { readonly code: 'not_configured' | 'auth'; readonly message: string } };

export type OAuthTokenSource = {
  getToken(provider: string, signal?: AbortSignal): Promise<OAuthTokenResult>;
};

export type TokenSourceOptions = {
  /** The auth.json path. */
  readonly path: string;
  readonly fetch?: FetchLike;
  readonly now?: () => number;
};

const loginAgain = (provider: string) => `run iris auth login ${provider} again`;

export function createOAuthTokenSource(options: TokenSourceOptions): OAuthTokenSource {
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? fetch;

  async function refresh(provider: string, signal: AbortSignal | undefined): Promise<OAuthTokenResult> {
    const outcome = await updateAuthStore<OAuthTokenResult>(options.path, async (store) => {
      const entry = store.providers[provider];
      // Another process may have refreshed while this one waited for the lock.
      const use = decideTokenUse(entry, now());
      if (use.kind === 'use') return { ok: true, value: { ok: true, token: use.accessToken } };
      if (!entry || use.kind === 'none') {
        return { ok: true, value: { ok: false, error: { code: 'auth', message: `${provider}: the OAuth sign-in has expired: ${loginAgain(provider)}` } } };
      }
      const server = resolveAuthServer(provider, entry);
      if (!server.ok) return { ok: true, value: { ok: false, error: { code: 'not_configured', message: server.message } } };
      const answer = await requestToken(
        fetchImpl,
        server.server.tokenUrl,
        { grant_type: 'refresh_token', refresh_token: use.refreshToken, client_id: entry.client_id },
        signal,
      );
      if (answer.kind !== 'tokens') {
        const why = answer.kind === 'error' ? `${answer.error}${answer.description ? `: ${answer.description}` : ''}` : answer.message;
        return { ok: true, value: { ok: false, error: { code: 'auth', message: `${provider}: the OAuth token could not be refreshed (${why}): ${loginAgain(provider)}` } } };
      }
      const oauth = tokensFromAnswer(answer.answer, now(), entry.oauth);
      return { ok: true, store: withEntry(store, provider, { ...entry, oauth }), value: { ok: true, token: oauth.access_token } };
    });
    if (!outcome.ok) return { ok: false, error: { code: 'auth', message: `${provider}: ${outcome.error.message}` } };
    return outcome.value;
  }

  return {
    async getToken(provider, signal) {
      const loaded = await loadAuthStore(options.path);
      if (!loaded.ok) return { ok: false, error: { code: 'not_configured', message: loaded.error.message } };
      const use = decideTokenUse(loaded.store.providers[provider], now());
      switch (use.kind) {
        case 'use':
          return { ok: true, token: use.accessToken };
        case 'refresh':
          return refresh(provider, signal);
        case 'none':
          return {
            ok: false,
            error: {
              code: use.reason === 'expired' ? 'auth' : 'not_configured',
              message: use.reason === 'expired' ? `${provider}: the OAuth sign-in has expired: ${loginAgain(provider)}` : `${provider}: not signed in: run iris auth login ${provider}`,
            },
          };
      }
    },
  };
}
