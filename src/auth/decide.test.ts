import { describe, expect, it } from 'vitest';
import { decideTokenUse, nextPollStep, REFRESH_MARGIN_MS, tokensFromAnswer, type PollAnswer } from './decide.js';
import type { AuthEntry } from './store.js';

const NOW = Date.parse('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const entry = (oauth?: Partial<NonNullable<AuthEntry['oauth']>>): AuthEntry => ({
  client_id: 'cid',
  added_at: at(-60_000),
  ...(oauth ? { oauth: { access_token: 'at-1', expires_at: at(3_600_000), obtained_at: at(-60_000), ...oauth } } : {}),
});

describe('decideTokenUse', () => {
  it.each([
    ['no entry', undefined, { kind: 'none', reason: 'not_logged_in' }],
    ['a client id but no sign-in', entry(), { kind: 'none', reason: 'not_logged_in' }],
    ['an hour left', entry({}), { kind: 'use', accessToken: 'at-1' }],
    ['no lifetime given', entry({ expires_at: null }), { kind: 'use', accessToken: 'at-1' }],
    ['just over the margin', entry({ expires_at: at(REFRESH_MARGIN_MS + 1) }), { kind: 'use', accessToken: 'at-1' }],
    ['inside the margin, refreshable', entry({ expires_at: at(REFRESH_MARGIN_MS), refresh_token: 'rt-1' }), { kind: 'refresh', refreshToken: 'rt-1' }],
    ['expired, refreshable', entry({ expires_at: at(-1), refresh_token: 'rt-1' }), { kind: 'refresh', refreshToken: 'rt-1' }],
    ['inside the margin, nothing to refresh with: still good', entry({ expires_at: at(60_000) }), { kind: 'use', accessToken: 'at-1' }],
    ['expired, nothing to refresh with', entry({ expires_at: at(0) }), { kind: 'none', reason: 'expired' }],
  ] as const)('%s', (_name, given, expected) => {
    expect(decideTokenUse(given, NOW)).toEqual(expected);
  });
});

describe('nextPollStep', () => {
  const error = (name: string, description?: string): PollAnswer => ({ kind: 'error', error: name, description });
  const tokens = { access_token: 'a', token_type: 'Bearer' };
  it.each([
    ['tokens', { kind: 'tokens', answer: tokens }, 5, 60_000, { kind: 'done', answer: tokens }],
    ['authorization_pending', error('authorization_pending'), 5, 60_000, { kind: 'wait', intervalS: 5 }],
    ['slow_down adds 5 s', error('slow_down'), 5, 60_000, { kind: 'wait', intervalS: 10 }],
    ['slow_down from 0', error('slow_down'), 0, 60_000, { kind: 'wait', intervalS: 5 }],
    ['access_denied', error('access_denied'), 5, 60_000, { kind: 'fail', code: 'access_denied', message: 'the sign-in was denied' }],
    ['expired_token', error('expired_token'), 5, 60_000, { kind: 'fail', code: 'expired_token', message: 'the code expired before the sign-in was approved' }],
    ['pending past the deadline', error('authorization_pending'), 5, 0, { kind: 'fail', code: 'expired_token', message: 'the code expired before the sign-in was approved' }],
    ['slow_down past the deadline', error('slow_down'), 5, -1, { kind: 'fail', code: 'expired_token', message: 'the code expired before the sign-in was approved' }],
    ['another OAuth error', error('invalid_client', 'unknown client'), 5, 60_000, { kind: 'fail', code: 'oauth_error', message: 'the authorization server answered invalid_client: unknown client' }],
    ['not OAuth at all', { kind: 'broken', message: 'POST x answered 502 with no JSON' }, 5, 60_000, { kind: 'fail', code: 'oauth_error', message: 'POST x answered 502 with no JSON' }],
  ] as const)('%s', (_name, answer, interval, left, expected) => {
    expect(nextPollStep(answer, interval, left)).toEqual(expected);
  });
});

describe('tokensFromAnswer', () => {
  it('computes the expiry from expires_in and stamps the time', () => {
    expect(tokensFromAnswer({ access_token: 'a', token_type: 'Bearer', expires_in: 60, refresh_token: 'r', scope: 's' }, NOW)).toEqual({
      access_token: 'a',
      refresh_token: 'r',
      expires_at: at(60_000),
      scope: 's',
      obtained_at: at(0),
    });
  });

  it('keeps the old refresh token and scope when a refresh names none; no lifetime is null', () => {
    const previous = { access_token: 'old', refresh_token: 'r-old', expires_at: at(0), scope: 'read', obtained_at: at(-1) };
    expect(tokensFromAnswer({ access_token: 'new', token_type: 'bearer' }, NOW, previous)).toEqual({
      access_token: 'new',
      refresh_token: 'r-old',
      expires_at: null,
      scope: 'read',
      obtained_at: at(0),
    });
  });
});
