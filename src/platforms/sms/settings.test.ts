import { describe, expect, it } from 'vitest';
import type { SmsConfig } from '../../config/schema.js';
import { missingFor, readSmsSettings } from './settings.js';

const extra = (over: Partial<SmsConfig['extra']> = {}): SmsConfig['extra'] => ({
  allowed_users: [],
  owners: [],
  allow_all_users: false,
  home_channel: '',
  group_sessions_per_user: true,
  api_base: 'https://api.twilio.com/',
  from: '+15550001111',
  public_url: 'https://iris.example.com/platforms/sms',
  ...over,
});
const env = { TWILIO_ACCOUNT_SID: ' ACabc\n', TWILIO_AUTH_TOKEN: 'tok' };

describe('readSmsSettings', () => {
  it('trims the secrets and drops a trailing slash from api_base', () => {
    expect(readSmsSettings(extra(), env)).toEqual({
      apiBase: 'https://api.twilio.com',
      from: '+15550001111',
      publicUrl: 'https://iris.example.com/platforms/sms',
      accountSid: 'ACabc',
      authToken: 'tok',
    });
  });
});

describe('missingFor', () => {
  it('names nothing when all is set', () => {
    expect(missingFor(readSmsSettings(extra(), env), 'all')).toEqual([]);
  });

  it('receiving needs the secrets and public_url, not from; sending needs the secrets and from', () => {
    const noFrom = readSmsSettings(extra({ from: '' }), env);
    expect(missingFor(noFrom, 'receive')).toEqual([]);
    expect(missingFor(noFrom, 'send')).toEqual(['platforms.sms.extra.from']);
    const noUrl = readSmsSettings(extra({ public_url: ' ' }), env);
    expect(missingFor(noUrl, 'send')).toEqual([]);
    expect(missingFor(noUrl, 'receive')).toEqual(['platforms.sms.extra.public_url']);
  });

  it('names each missing secret by its variable, never its value', () => {
    expect(missingFor(readSmsSettings(extra({ from: '', public_url: '' }), {}), 'all')).toEqual([
      'TWILIO_ACCOUNT_SID',
      'TWILIO_AUTH_TOKEN',
      'platforms.sms.extra.from',
      'platforms.sms.extra.public_url',
    ]);
  });
});
