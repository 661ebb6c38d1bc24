import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { platformsDocument, scrub, settingRows, type PlatformsInput } from './platform-view.js';

const TOKEN = '123456:AAE-telegram-secret-token-value';
const NESTED = 'nested-webhook-signing-secret-42';

function input(overrides: Partial<PlatformsInput> = {}): PlatformsInput {
  const config = configSchema.parse({
    platforms: {
      telegram: {
        enabled: true,
        extra: {
          owners: [111],
          allowed_users: ['222'],
          home_channel: 333,
          // A token pasted where it does not belong, and a secret nested in a setting of its own.
          api_base: `https://api.telegram.org/bot${TOKEN}`,
          relay: { signing_secret: NESTED, region: 'eu', deeper: { password: 'hunter2-long-pass' } },
        },
      },
      sms: { enabled: true, extra: { home_channel: 15551234567 } },
    },
  });
  return {
    config,
    env: { TELEGRAM_BOT_TOKEN: TOKEN, TWILIO_AUTH_TOKEN: '' },
    gateway: { running: true, pid: 42, platforms: [{ name: 'telegram', connected: false, detail: `reconnecting: 401 for ${TOKEN}`, since: '2026-11-29T01:00:00.000Z' }] },
    pending: [{ platform: 'telegram', userId: '999', userName: 'Eve', chatId: '999', code: 'K7Q2M9XD', createdAt: 1_000_000, expiresAt: 1_000_000 + 3_600_000 }],
    approved: [{ platform: 'sms', userId: '+15550001111', userName: null, approvedAt: 2_000_000 }],
    now: 1_090_000,
    ...overrides,
  };
}

describe('platformsDocument', () => {
  it('never lets a secret value into the JSON, wherever it was set', () => {
    const text = JSON.stringify(platformsDocument(input()));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('AAE-telegram');
    expect(text).not.toContain(NESTED);
    expect(text).not.toContain('hunter2');
  });

  it('shows each secret as set / not set, and the rest as they are', () => {
    const telegram = platformsDocument(input()).platforms.find((p) => p.name === 'telegram')!;
    expect(telegram.settings).toEqual([
      { key: 'group_sessions_per_user', source: 'config', secret: false, value: 'true' },
      { key: 'api_base', source: 'config', secret: false, value: 'https://api.telegram.org/bot[redacted]' },
      { key: 'poll_timeout', source: 'config', secret: false, value: '25' },
      { key: 'relay.signing_secret', source: 'config', secret: true, value: 'set' },
      { key: 'relay.region', source: 'config', secret: false, value: 'eu' },
      { key: 'relay.deeper.password', source: 'config', secret: true, value: 'set' },
      { key: 'TELEGRAM_BOT_TOKEN', source: 'env', secret: true, value: 'set' },
    ]);
    const sms = platformsDocument(input()).platforms.find((p) => p.name === 'sms')!;
    expect(sms.settings.filter((row) => row.source === 'env')).toEqual([
      { key: 'TWILIO_ACCOUNT_SID', source: 'env', secret: true, value: 'not set' },
      { key: 'TWILIO_AUTH_TOKEN', source: 'env', secret: true, value: 'not set' },
    ]);
  });

  it('gives owners, home channel, connection and pairing per platform', () => {
    const doc = platformsDocument(input());
    expect(doc.gateway).toEqual({ running: true, pid: 42 });
    expect(doc.platforms.map((p) => [p.name, p.enabled, p.connection.state])).toEqual([
      ['telegram', true, 'disconnected'],
      ['discord', false, 'disabled'],
      ['slack', false, 'disabled'],
      ['signal', false, 'disabled'],
      ['sms', true, 'not_reported'],
    ]);
    const [telegram] = doc.platforms;
    expect(telegram!.connection).toEqual({ state: 'disconnected', detail: 'reconnecting: 401 for [redacted]', since: '2026-11-29T01:00:00.000Z' });
    expect(telegram!.owners).toEqual(['111']);
    expect(telegram!.allowed_users).toEqual(['222']);
    expect(telegram!.home_channel).toBe('333');
    expect(telegram!.pending).toEqual([
      { code: 'K7Q2M9XD', user_id: '999', user_name: 'Eve', chat_id: '999', created_at: new Date(1_000_000).toISOString(), expires_at: new Date(4_600_000).toISOString(), age_seconds: 90 },
    ]);
    expect(telegram!.approved).toEqual([]);
    const sms = doc.platforms[4]!;
    expect(sms.home_channel).toBe('+15551234567');
    expect(sms.approved).toEqual([{ user_id: '+15550001111', user_name: null, approved_at: new Date(2_000_000).toISOString() }]);
  });

  it('says the gateway is stopped, and a platform without a home channel has none', () => {
    const doc = platformsDocument(input({ gateway: { running: false, pid: null, platforms: [] } }));
    expect(doc.platforms[0]!.connection).toEqual({ state: 'gateway_stopped', detail: 'the gateway is not running (iris gateway start)', since: null });
    expect(doc.platforms[1]!.home_channel).toBeNull();
  });

  it("hides one platform's secret pasted into another platform's setting", () => {
    const slackToken = 'xoxb-slack-bot-token-0123456789';
    const base = input();
    const config = configSchema.parse({ platforms: { discord: { enabled: true, extra: { api_base: `https://discord.example/${slackToken}` } } } });
    const doc = platformsDocument({ ...base, config, env: { SLACK_BOT_TOKEN: slackToken } });
    expect(JSON.stringify(doc)).not.toContain(slackToken);
    expect(doc.platforms[1]!.settings.find((row) => row.key === 'api_base')).toEqual({ key: 'api_base', source: 'config', secret: false, value: 'https://discord.example/[redacted]' });
  });
});

describe('settingRows', () => {
  it('masks everything under a secret-named mapping, however deep', () => {
    expect(settingRows({ credentials: { user: 'ada', nested: { pin: '1234' } }, empty_token: '' })).toEqual({
      rows: [
        { key: 'credentials.user', source: 'config', secret: true, value: 'set' },
        { key: 'credentials.nested.pin', source: 'config', secret: true, value: 'set' },
        { key: 'empty_token', source: 'config', secret: true, value: 'not set' },
      ],
      secrets: ['ada', '1234', ''],
    });
  });
});

describe('scrub', () => {
  it('replaces known secrets of six characters or more, and credential-shaped text', () => {
    expect(scrub('a abcdef b Bearer zyxwvutsrq', ['abcdef', 'x'])).toBe('a [redacted] b Bearer [redacted]');
    expect(scrub('x marks', ['x'])).toBe('x marks');
  });
});
