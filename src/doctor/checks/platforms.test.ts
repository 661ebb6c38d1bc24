import { describe, expect, it } from 'vitest';
import type { Config } from '../../config/schema.js';
import { validateConfig } from '../../config/validate.js';
import { checkPlatformAccess, checkPlatformOwners, checkPlatformProbe, checkPlatformSetup, platformProbeDescription, probeFix, readPlatformSetup } from './platforms.js';

function config(platforms: Record<string, unknown>): Config {
  return validateConfig({ platforms }).config;
}

const TELEGRAM = config({ telegram: { enabled: true, extra: { allowed_users: [111, '222'], home_channel: -100 } } });
const SMS = config({ sms: { enabled: true, extra: { from: '+15550001111', public_url: 'https://iris.example.com/platforms/sms' } } });
const SIGNAL = config({ signal: { enabled: true, extra: { http_url: 'http://127.0.0.1:8080/', account: '+15550002222' } } });
const TOKEN = '123456:secret-token-value';
const TWILIO = { TWILIO_ACCOUNT_SID: 'ACxxxxxxxx', TWILIO_AUTH_TOKEN: 'twilio-secret' };

describe('readPlatformSetup and checkPlatformSetup', () => {
  it('telegram with its token: ok, the token named and never shown', () => {
    const setup = readPlatformSetup('telegram', TELEGRAM, { TELEGRAM_BOT_TOKEN: TOKEN }, true);
    expect(setup).toMatchObject({ missing: [], allowedUsers: 2, homeChannel: '-100', allowAllUsers: false });
    const check = checkPlatformSetup(setup);
    expect(check).toEqual({
      id: 'platform:telegram',
      name: 'telegram',
      status: 'ok',
      finding: 'TELEGRAM_BOT_TOKEN is set; Bot API at https://api.telegram.org; home_channel -100',
    });
    expect(JSON.stringify(check)).not.toContain(TOKEN);
  });

  it('telegram without a token (or a blank one) fails, naming the variable', () => {
    for (const env of [{}, { TELEGRAM_BOT_TOKEN: '  ' }]) {
      expect(checkPlatformSetup(readPlatformSetup('telegram', TELEGRAM, env, true))).toEqual({
        id: 'platform:telegram',
        name: 'telegram',
        status: 'fail',
        finding: 'enabled, but TELEGRAM_BOT_TOKEN is not set',
        fix: 'iris config set TELEGRAM_BOT_TOKEN <secret> (docs/platforms.md)',
      });
    }
  });

  it('discord: DISCORD_BOT_TOKEN required, named and never shown; the probe and its fixes', () => {
    const discord = config({ discord: { enabled: true, extra: { allowed_users: ['410000000000000001'] } } });
    const setup = readPlatformSetup('discord', discord, { DISCORD_BOT_TOKEN: TOKEN }, true);
    expect(checkPlatformSetup(setup)).toEqual({ id: 'platform:discord', name: 'discord', status: 'ok', finding: 'DISCORD_BOT_TOKEN is set; API at https://discord.com/api/v10; no home_channel (/sethome in a chat sets it)' });
    expect(checkPlatformSetup(readPlatformSetup('discord', discord, {}, true))).toMatchObject({ status: 'fail', finding: 'enabled, but DISCORD_BOT_TOKEN is not set', fix: 'iris config set DISCORD_BOT_TOKEN <secret> (docs/platforms.md)' });
    expect(platformProbeDescription('discord', discord)).toBe('discord: GET /users/@me at https://discord.com/api/v10');
    expect(probeFix('discord', 'credentials')).toContain('Developer Portal');
  });

  it('sms names each missing secret and setting, in order', () => {
    const bare = config({ sms: { enabled: true } });
    expect(checkPlatformSetup(readPlatformSetup('sms', bare, {}, true))).toMatchObject({
      status: 'fail',
      finding: 'enabled, but TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, platforms.sms.extra.from, platforms.sms.extra.public_url are not set',
    });
    const noUrl = config({ sms: { enabled: true, extra: { from: '+15550001111' } } });
    expect(checkPlatformSetup(readPlatformSetup('sms', noUrl, TWILIO, true))).toEqual({
      id: 'platform:sms',
      name: 'sms',
      status: 'fail',
      finding: 'enabled, but platforms.sms.extra.public_url is not set',
      fix: 'iris config set platforms.sms.extra.public_url <value> (docs/platforms.md)',
    });
    expect(checkPlatformSetup(readPlatformSetup('sms', SMS, TWILIO, true))).toMatchObject({
      status: 'ok',
      finding: 'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set; sends from +15550001111; Twilio posts to https://iris.example.com/platforms/sms; no home_channel (/sethome in a chat sets it)',
    });
  });

  it('slack: both tokens are required, named, never shown', () => {
    const slack = config({ slack: { enabled: true } });
    expect(checkPlatformSetup(readPlatformSetup('slack', slack, { SLACK_BOT_TOKEN: 'xoxb-1' }, true))).toMatchObject({
      status: 'fail',
      finding: 'enabled, but SLACK_APP_TOKEN is not set',
      fix: 'iris config set SLACK_APP_TOKEN <secret> (docs/platforms.md)',
    });
    const done = checkPlatformSetup(readPlatformSetup('slack', slack, { SLACK_BOT_TOKEN: 'xoxb-secret', SLACK_APP_TOKEN: 'xapp-secret' }, true));
    expect(done).toMatchObject({ status: 'ok', finding: 'SLACK_BOT_TOKEN and SLACK_APP_TOKEN are set; Web API at https://slack.com/api, Socket Mode; no home_channel (/sethome in a chat sets it)' });
    expect(JSON.stringify(done)).not.toContain('secret');
    expect(platformProbeDescription('slack', slack)).toBe('slack: auth.test and apps.connections.open at https://slack.com/api');
  });

  it('signal: http_url is required, account advised', () => {
    expect(checkPlatformSetup(readPlatformSetup('signal', config({ signal: { enabled: true } }), {}, true))).toMatchObject({
      status: 'fail',
      finding: 'enabled, but platforms.signal.extra.http_url is not set',
    });
    expect(checkPlatformSetup(readPlatformSetup('signal', config({ signal: { enabled: true, extra: { http_url: 'http://127.0.0.1:8080' } } }), {}, true))).toMatchObject({
      status: 'warn',
      fix: "iris config set platforms.signal.extra.account <value> (the bot's number, +15551234567)",
    });
    expect(checkPlatformSetup(readPlatformSetup('signal', SIGNAL, {}, true))).toMatchObject({
      status: 'ok',
      finding: 'signal-cli daemon at http://127.0.0.1:8080/, account +15550002222; no home_channel (/sethome in a chat sets it)',
    });
  });

  it('a platform this build cannot run fails with the way to switch it off, and has no access check', () => {
    const setup = readPlatformSetup('discord', config({ discord: { enabled: true } }), {}, false);
    expect(checkPlatformSetup(setup)).toMatchObject({ id: 'platform:discord', status: 'fail', fix: 'iris config set platforms.discord.enabled false' });
    expect(checkPlatformAccess(setup)).toBeUndefined();
    expect(checkPlatformOwners(setup)).toBeUndefined();
  });
});

describe('checkPlatformAccess', () => {
  it('allow_all_users is a warning', () => {
    const open = config({ telegram: { enabled: true, extra: { allow_all_users: true } } });
    expect(checkPlatformAccess(readPlatformSetup('telegram', open, {}, true))).toEqual({
      id: 'platform_access:telegram',
      name: 'telegram access',
      status: 'warn',
      finding: 'allow_all_users is true: anyone who finds the bot can use the agent (and its tools)',
      fix: 'iris config set platforms.telegram.extra.allow_all_users false, and list the users in platforms.telegram.extra.allowed_users (or approve them: iris pairing approve telegram <code>)',
    });
  });

  it('otherwise says who may talk', () => {
    expect(checkPlatformAccess(readPlatformSetup('telegram', TELEGRAM, {}, true))).toMatchObject({
      status: 'ok',
      finding: '2 users in allowed_users, plus those approved with iris pairing approve; anyone else gets a pairing code in a direct message',
    });
    expect(checkPlatformAccess(readPlatformSetup('sms', SMS, {}, true))?.finding).toMatch(/^no users in allowed_users, /);
  });
});

describe('checkPlatformOwners', () => {
  it('no owners is a warning naming the commands that cannot be used and the key that fixes it, on every platform', () => {
    for (const [name, setup] of [['telegram', TELEGRAM], ['sms', SMS], ['signal', SIGNAL]] as const) {
      expect(checkPlatformOwners(readPlatformSetup(name, setup, {}, true))).toEqual({
        id: `platform_owners:${name}`,
        name: `${name} owners`,
        status: 'warn',
        finding: `platforms.${name} has no owners: /sethome, /model --global and /approve cannot be used from a chat`,
        fix: `set platforms.${name}.extra.owners in config.yaml to the ${name} user ids that may use them (a list, like allowed_users; docs/platforms.md)`,
      });
    }
  });
  it('with owners, says how many', () => {
    const one = config({ telegram: { enabled: true, extra: { owners: [111] } } });
    expect(checkPlatformOwners(readPlatformSetup('telegram', one, {}, true))).toEqual({
      id: 'platform_owners:telegram',
      name: 'telegram owners',
      status: 'ok',
      finding: '1 owner: /sethome, /model --global and /approve work from their chats',
    });
    const two = config({ discord: { enabled: true, extra: { owners: ['410000000000000001', '410000000000000002'] } } });
    expect(checkPlatformOwners(readPlatformSetup('discord', two, {}, true))?.finding).toMatch(/^2 owners: /);
  });
  it('allow_all_users and no owners: two warnings, each with its own fix', () => {
    const open = readPlatformSetup('telegram', config({ telegram: { enabled: true, extra: { allow_all_users: true } } }), {}, true);
    expect([checkPlatformAccess(open)?.status, checkPlatformOwners(open)?.status]).toEqual(['warn', 'warn']);
  });
});

describe('checkPlatformProbe', () => {
  it('ok carries the adapter detail', () => {
    expect(checkPlatformProbe('telegram', { ok: true, detail: '@iris_bot' })).toEqual({ id: 'platform_probe:telegram', name: 'telegram probe', status: 'ok', finding: '@iris_bot' });
  });

  it('a failure gets the fix for its cause', () => {
    expect(checkPlatformProbe('telegram', { ok: false, reason: 'Telegram rejected the token in TELEGRAM_BOT_TOKEN (401)', cause: 'credentials' })).toEqual({
      id: 'platform_probe:telegram',
      name: 'telegram probe',
      status: 'fail',
      finding: 'Telegram rejected the token in TELEGRAM_BOT_TOKEN (401)',
      fix: "get the bot's current token from @BotFather (/token) and set it: iris config set TELEGRAM_BOT_TOKEN <token>",
    });
    expect(checkPlatformProbe('signal', { ok: false, reason: 'unreachable', cause: 'unreachable' }).fix).toMatch(/^start the daemon/);
  });

  it.each([
    ['telegram', 'credentials', /TELEGRAM_BOT_TOKEN/],
    ['telegram', 'unreachable', /api_base is reachable/],
    ['telegram', undefined, /check TELEGRAM_BOT_TOKEN/],
    ['signal', 'credentials', /http_url and \.account/],
    ['signal', 'unreachable', /signal-cli -a <number> daemon --http/],
    ['signal', undefined, /http_url and \.account/],
    ['sms', 'credentials', /TWILIO_AUTH_TOKEN/],
    ['sms', 'unreachable', /platforms\.sms\.extra\.api_base is reachable/],
    ['sms', undefined, /Twilio account in the console/],
    ['slack', 'credentials', /SLACK_BOT_TOKEN <token>; iris config set SLACK_APP_TOKEN/],
    ['slack', 'unreachable', /platforms\.slack\.extra\.api_base is reachable/],
    ['slack', undefined, /Socket Mode on/],
    ['discord', undefined, /platforms\.discord/],
  ] as const)('%s, cause %s: a fix', (name, cause, fix) => {
    expect(probeFix(name, cause)).toMatch(fix);
  });
});

describe('platformProbeDescription', () => {
  it('says what each probe asks', () => {
    expect(platformProbeDescription('telegram', TELEGRAM)).toBe('telegram: getMe at https://api.telegram.org');
    expect(platformProbeDescription('signal', SIGNAL)).toBe('signal: GET http://127.0.0.1:8080/api/v1/check');
    expect(platformProbeDescription('sms', SMS)).toBe('sms: the Twilio account at https://api.twilio.com');
  });
});
