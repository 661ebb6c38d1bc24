// `iris pairing list` as text and JSON, and the command's input rules: pure, so every case here.
import { describe, expect, it } from 'vitest';
import type { ApprovedUser, PairingRequest } from '../store/platform-types.js';
import { normaliseCode, parsePlatform } from './commands/pairing.js';
import { CliFailure } from './exit-codes.js';
import { approvedUserJson, expiresIn, pairingListJson, pairingListText, userLabel } from './pairing-text.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const MINUTE = 60_000;

const pending: PairingRequest = { platform: 'telegram', userId: '4242', userName: 'Ada', chatId: '4242', code: 'K7Q2M9XD', createdAt: NOW - 10 * MINUTE, expiresAt: NOW + 50 * MINUTE };
const approved: ApprovedUser = { platform: 'sms', userId: '+15551234567', userName: null, approvedAt: NOW - 5 * MINUTE };

describe('expiresIn', () => {
  it('is whole minutes down to one, then seconds, then expired', () => {
    expect(expiresIn(NOW + 60 * MINUTE, NOW)).toBe('60m');
    expect(expiresIn(NOW + 60 * MINUTE - 1, NOW)).toBe('59m');
    expect(expiresIn(NOW + MINUTE, NOW)).toBe('1m');
    expect(expiresIn(NOW + 59_999, NOW)).toBe('59s');
    expect(expiresIn(NOW + 1_000, NOW)).toBe('1s');
    expect(expiresIn(NOW + 999, NOW)).toBe('expired');
    expect(expiresIn(NOW - MINUTE, NOW)).toBe('expired');
  });
});

describe('pairingListText', () => {
  it('prints both sections as tables', () => {
    expect(pairingListText([pending], [approved], NOW)).toBe(
      [
        'pending codes (iris pairing approve <platform> <code>):',
        'PLATFORM  CODE      USER  NAME  CHAT  EXPIRES IN',
        'telegram  K7Q2M9XD  4242  Ada   4242  50m',
        '',
        'approved users (iris pairing revoke <platform> <user>):',
        'PLATFORM  USER          NAME  APPROVED',
        'sms       +15551234567        5m ago',
      ].join('\n'),
    );
  });

  it('says none for an empty section', () => {
    expect(pairingListText([], [], NOW)).toBe('pending codes: none\n\napproved users: none');
  });

  it('keeps a hostile name on one bounded line', () => {
    const text = pairingListText([{ ...pending, userName: `a\nb\t${'x'.repeat(100)}` }], [], NOW);
    expect(text.split('\n')).toHaveLength(5);
    expect(text).toContain(`a b ${'x'.repeat(25)}…`);
  });
});

describe('pairing JSON', () => {
  it('uses snake_case keys and ISO times', () => {
    expect(pairingListJson([pending], [approved])).toEqual({
      pending: [{ platform: 'telegram', code: 'K7Q2M9XD', user_id: '4242', user_name: 'Ada', chat_id: '4242', created_at: '2026-11-26T11:50:00.000Z', expires_at: '2026-11-26T12:50:00.000Z' }],
      approved: [{ platform: 'sms', user_id: '+15551234567', user_name: null, approved_at: '2026-11-26T11:55:00.000Z' }],
    });
    expect(approvedUserJson(approved)).toEqual({ platform: 'sms', user_id: '+15551234567', user_name: null, approved_at: '2026-11-26T11:55:00.000Z' });
  });
});

describe('input', () => {
  it('takes the chat platforms by name and refuses anything else as a usage error naming them', () => {
    expect(parsePlatform('signal')).toBe('signal');
    expect(() => parsePlatform('Telegram')).toThrow(new CliFailure('usage', 'unknown platform "Telegram" (platforms: telegram, discord, slack, signal, sms)'));
    expect(() => parsePlatform('webhook')).toThrow(CliFailure);
  });

  it('reads a code in any case, without surrounding blanks', () => {
    expect(normaliseCode(' k7q2M9xd\n')).toBe('K7Q2M9XD');
  });

  it('names a user with their name when there is one', () => {
    expect(userLabel('telegram', '4242', 'Ada')).toBe('telegram user 4242 (Ada)');
    expect(userLabel('sms', '+1555', null)).toBe('sms user +1555');
  });
});
