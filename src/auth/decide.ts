// The pure decisions of OAuth: whether a stored token can be used as it is, must be refreshed
// first, or is gone; what one answer of the token endpoint means while a device login polls
// (RFC 8628 §3.5); and the record a token answer becomes. No I/O and no clock of their own.
import type { AuthEntry, OAuthTokens } from './store.js';

/** A token this close to its expiry is refreshed before a call rather than sent. */
export const REFRESH_MARGIN_MS = 2 * 60_000;
/** RFC 8628 §3.5: `slow_down` adds 5 seconds to the polling interval, for this and all later polls. */
export const SLOW_DOWN_STEP_S = 5;
/** RFC 8628 §3.2: the interval when the server names none. */
export const DEFAULT_INTERVAL_S = 5;

export type TokenUse =
  | { readonly kind: 'use'; readonly accessToken: string }
  | { readonly kind: 'refresh'; readonly refreshToken: string }
  | { readonly kind: 'none'; readonly reason: 'not_logged_in' | 'expired' };

export function decideTokenUse(entry: AuthEntry | undefined, nowMs: number): TokenUse {
  const tokens = entry?.oauth;
  if (!tokens) return { kind: 'none', reason: 'not_logged_in' };
  if (tokens.expires_at === null) return { kind: 'use', accessToken: tokens.access_token };
  const left = Date.parse(tokens.expires_at) - nowMs;
  if (left > REFRESH_MARGIN_MS) return { kind: 'use', accessToken: tokens.access_token };
  if (tokens.refresh_token) return { kind: 'refresh', refreshToken: tokens.refresh_token };
  // Nothing to refresh with: a token that still has a minute or two left is still good.
  return left > 0 ? { kind: 'use', accessToken: tokens.access_token } : { kind: 'none', reason: 'expired' };
}

/** A successful token endpoint answer (RFC 6749 §5.1), already validated. */
export type TokenAnswer = {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number | undefined;
  readonly refresh_token?: string | undefined;
  readonly scope?: string | undefined;
};

/** The stored record of a token answer; a refresh that names no new refresh token keeps the old one. */
export function tokensFromAnswer(answer: TokenAnswer, nowMs: number, previous?: OAuthTokens): OAuthTokens {
  const refresh = answer.refresh_token ?? previous?.refresh_token;
  const scope = answer.scope ?? previous?.scope;
  return {
    access_token: answer.access_token,
    ...(refresh ? { refresh_token: refresh } : {}),
    expires_at: answer.expires_in !== undefined ? new Date(nowMs + answer.expires_in * 1000).toISOString() : null,
    ...(scope !== undefined ? { scope } : {}),
    obtained_at: new Date(nowMs).toISOString(),
  };
}

/** The token endpoint's answer to one poll, as the device flow sees it. */
export type PollAnswer =
  | { readonly kind: 'tokens'; readonly answer: TokenAnswer }
  | { readonly kind: 'error'; readonly error: string; readonly description?: string | undefined }
  /** Not an OAuth answer at all (no JSON, a proxy's page, a network failure). */
  | { readonly kind: 'broken'; readonly message: string };

export type DeviceFlowFailure = 'access_denied' | 'expired_token' | 'oauth_error';

export type PollStep =
  | { readonly kind: 'done'; readonly answer: TokenAnswer }
  | { readonly kind: 'wait'; readonly intervalS: number }
  | { readonly kind: 'fail'; readonly code: DeviceFlowFailure; readonly message: string };

/** What to do after one poll, given the interval in force and the time left before the code expires. */
export function nextPollStep(answer: PollAnswer, intervalS: number, msLeft: number): PollStep {
  const expired: PollStep = {
    kind: 'fail',
    code: 'expired_token',
    message: 'the code expired before the sign-in was approved',
  };
  switch (answer.kind) {
    case 'tokens':
      return { kind: 'done', answer: answer.answer };
    case 'broken':
      return { kind: 'fail', code: 'oauth_error', message: answer.message };
    case 'error':
      switch (answer.error) {
        case 'authorization_pending':
          return msLeft > 0 ? { kind: 'wait', intervalS } : expired;
        case 'slow_down':
          return msLeft > 0 ? { kind: 'wait', intervalS: intervalS + SLOW_DOWN_STEP_S } : expired;
        case 'access_denied':
          return { kind: 'fail', code: 'access_denied', message: 'the sign-in was denied' };
        case 'expired_token':
          return expired;
        default:
          return {
            kind: 'fail',
            code: 'oauth_error',
            message: `the authorization server answered ${answer.error}${answer.description ? `: ${answer.description}` : ''}`,
          };
      }
  }
}
