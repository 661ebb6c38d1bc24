// `iris doctor` and the chat platforms, end to end: bin/iris against a temporary IRIS_HOME with the
// fake Bot API, the fake Twilio and a signal-cli daemon address where nothing listens. The model
// is the fake upstream, so the only failures are the platforms'. No secret on stdout or stderr.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeDiscord } from '../fakes/discord-api.js';
import { startFakeSlack } from '../fakes/slack-api.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram-api.js';
import { closedPortUrl } from '../fakes/token-endpoint.js';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const BOT_TOKEN = '4242424242:AAH-doctor-test-token-0123456789ab';
const WRONG_TOKEN = '4242424242:AAH-not-this-one-0123456789abcdefg';
const SID = 'AC0123456789abcdef0123456789abcdef';
const TWILIO_TOKEN = 'f00dfeedc0ffee0123456789abcdef01';
const API_KEY = 'sk-doctor-platforms-0123456789';

let upstream: FakeUpstream;
let telegram: FakeTelegram;
let twilio: FakeTwilio;
let dir: string;
let home: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({ models: ['main-m'] });
  telegram = await startFakeTelegram({ token: BOT_TOKEN, botUsername: 'iris_doctor_bot' });
  twilio = await startFakeTwilio({ accountSid: SID, authToken: TWILIO_TOKEN });
});
afterAll(async () => {
  await Promise.all([upstream.close(), telegram.close(), twilio.close()]);
});
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

async function setUp(platformsYaml: string, envLines: string[]): Promise<void> {
  const config = `model:\n  provider: openai\n  default: main-m\n  base_url: ${upstream.url}/v1\nplatforms:\n${platformsYaml}`;
  await writeFile(join(home, 'config.yaml'), config, { mode: 0o600 });
  await writeFile(join(home, '.env'), [`OPENAI_API_KEY=${API_KEY}`, ...envLines, ''].join('\n'), { mode: 0o600 });
}

const telegramYaml = (more = '') => `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      allowed_users: [111]\n${more}`;

type Check = { id: string; name: string; status: string; finding: string; fix?: string };

async function doctorJson(): Promise<{ code: number; healthy: boolean; checks: Check[]; stdout: string; stderr: string }> {
  const result = await runIris(['doctor', '--json'], { home, timeoutMs: 30_000 });
  const report = JSON.parse(result.stdout) as { healthy: boolean; checks: Check[] };
  return { code: result.code, ...report, stdout: result.stdout, stderr: result.stderr };
}

const platformChecks = (checks: readonly Check[]) => checks.filter((c) => c.id.startsWith('platform'));

function expectNoSecret(result: { stdout: string; stderr: string }): void {
  for (const secret of [BOT_TOKEN, WRONG_TOKEN, TWILIO_TOKEN, API_KEY]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe('iris doctor: chat platforms', () => {
  it('telegram with a good token: getMe answers, exit 0; the text output says the same', async () => {
    await setUp(telegramYaml(), [`TELEGRAM_BOT_TOKEN=${BOT_TOKEN}`]);
    const calls = telegram.calls('getMe').length;
    const result = await doctorJson();
    expect(platformChecks(result.checks)).toEqual([
      { id: 'platform:telegram', name: 'telegram', status: 'ok', finding: `TELEGRAM_BOT_TOKEN is set; Bot API at ${telegram.url}; no home_channel (/sethome in a chat sets it)` },
      {
        id: 'platform_access:telegram',
        name: 'telegram access',
        status: 'ok',
        finding: '1 user in allowed_users, plus those approved with iris pairing approve; anyone else gets a pairing code in a direct message',
      },
      {
        id: 'platform_owners:telegram',
        name: 'telegram owners',
        status: 'warn',
        finding: 'platforms.telegram has no owners: /sethome, /model --global and /approve cannot be used from a chat',
        fix: 'set platforms.telegram.extra.owners in config.yaml to the telegram user ids that may use them (a list, like allowed_users; docs/platforms.md)',
      },
      { id: 'platform_probe:telegram', name: 'telegram probe', status: 'ok', finding: '@iris_doctor_bot' },
    ]);
    // A warning: still healthy.
    expect(result.healthy).toBe(true);
    expect(result.code).toBe(0);
    expect(telegram.calls('getMe').length).toBe(calls + 1);
    expectNoSecret(result);

    const text = await runIris(['doctor'], { home, timeoutMs: 30_000 });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('✓ telegram probe: @iris_doctor_bot\n');
    expect(text.stdout).toContain(
      '! telegram owners: platforms.telegram has no owners: /sethome, /model --global and /approve cannot be used from a chat\n' +
        '  fix: set platforms.telegram.extra.owners in config.yaml to the telegram user ids that may use them (a list, like allowed_users; docs/platforms.md)\n',
    );
    expectNoSecret(text);

    // --offline: settings and access only, nothing asked of Telegram.
    const before = telegram.calls('getMe').length;
    const offline = await runIris(['doctor', '--offline'], { home });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('✓ telegram access: ');
    expect(offline.stdout).not.toContain('telegram probe');
    expect(telegram.calls('getMe').length).toBe(before);
  });

  it('telegram with a wrong token: a failure naming TELEGRAM_BOT_TOKEN, never printing it; exit 1', async () => {
    await setUp(telegramYaml('      allow_all_users: true\n'), [`TELEGRAM_BOT_TOKEN=${WRONG_TOKEN}`]);
    const result = await doctorJson();
    expect(platformChecks(result.checks)).toEqual([
      expect.objectContaining({ id: 'platform:telegram', status: 'ok' }),
      {
        id: 'platform_access:telegram',
        name: 'telegram access',
        status: 'warn',
        finding: 'allow_all_users is true: anyone who finds the bot can use the agent (and its tools)',
        fix: 'iris config set platforms.telegram.extra.allow_all_users false, and list the users in platforms.telegram.extra.allowed_users (or approve them: iris pairing approve telegram <code>)',
      },
      expect.objectContaining({ id: 'platform_owners:telegram', status: 'warn' }),
      {
        id: 'platform_probe:telegram',
        name: 'telegram probe',
        status: 'fail',
        finding: 'Telegram rejected the token in TELEGRAM_BOT_TOKEN (401)',
        fix: "get the bot's current token from @BotFather (/token) and set it: iris config set TELEGRAM_BOT_TOKEN <token>",
      },
    ]);
    expect(result.healthy).toBe(false);
    expect(result.code).toBe(1);
    expectNoSecret(result);

    const text = await runIris(['doctor'], { home, timeoutMs: 30_000 });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('✗ telegram probe: Telegram rejected the token in TELEGRAM_BOT_TOKEN (401)\n');
    expect(text.stdout).toContain('! telegram access: allow_all_users is true');
    expectNoSecret(text);
  });

  it('telegram with owners and allow_all_users: owners ok, allow_all_users a warning; exit 0 (offline too)', async () => {
    await setUp(telegramYaml('      owners: [111, "222"]\n      allow_all_users: true\n'), [`TELEGRAM_BOT_TOKEN=${BOT_TOKEN}`]);
    const result = await doctorJson();
    expect(platformChecks(result.checks)).toEqual([
      expect.objectContaining({ id: 'platform:telegram', status: 'ok' }),
      expect.objectContaining({ id: 'platform_access:telegram', status: 'warn', finding: 'allow_all_users is true: anyone who finds the bot can use the agent (and its tools)' }),
      { id: 'platform_owners:telegram', name: 'telegram owners', status: 'ok', finding: '2 owners: /sethome, /model --global and /approve work from their chats' },
      expect.objectContaining({ id: 'platform_probe:telegram', status: 'ok' }),
    ]);
    expect(result.code).toBe(0);
    expectNoSecret(result);

    const offline = await runIris(['doctor', '--offline'], { home });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('! telegram access: allow_all_users is true: anyone who finds the bot can use the agent (and its tools)\n');
    expect(offline.stdout).toContain('✓ telegram owners: 2 owners: /sethome, /model --global and /approve work from their chats\n');
  });

  it('discord: GET /users/@me with DISCORD_BOT_TOKEN; a wrong token fails naming the variable, never printing it', async () => {
    const discordToken = 'MTk4.discord-doctor-token.0123456789';
    const discord = await startFakeDiscord({ token: discordToken, botName: 'iris-doctor' });
    try {
      const yaml = `  discord:\n    enabled: true\n    extra:\n      api_base: ${discord.url}\n      allowed_users: ["410000000000000001"]\n`;
      await setUp(yaml, [`DISCORD_BOT_TOKEN=${discordToken}`]);
      const good = await doctorJson();
      expect(platformChecks(good.checks)).toEqual([
        { id: 'platform:discord', name: 'discord', status: 'ok', finding: `DISCORD_BOT_TOKEN is set; API at ${discord.url}; no home_channel (/sethome in a chat sets it)` },
        expect.objectContaining({ id: 'platform_access:discord', status: 'ok' }),
        expect.objectContaining({ id: 'platform_owners:discord', status: 'warn' }),
        { id: 'platform_probe:discord', name: 'discord probe', status: 'ok', finding: 'bot iris-doctor' },
      ]);
      expect(discord.requests.filter((r) => r.path === '/users/@me' && r.authorized)).toHaveLength(1);

      await setUp(yaml, ['DISCORD_BOT_TOKEN=MTk4.not-this-one.0123456789']);
      const bad = await doctorJson();
      expect(platformChecks(bad.checks).at(-1)).toEqual({
        id: 'platform_probe:discord',
        name: 'discord probe',
        status: 'fail',
        finding: 'Discord rejected the token in DISCORD_BOT_TOKEN (401)',
        fix: "reset the bot's token in the Discord Developer Portal (Bot → Reset Token) and set it: iris config set DISCORD_BOT_TOKEN <token>",
      });
      expect(bad.code).toBe(1);
      for (const secret of [discordToken, 'not-this-one']) expect(bad.stdout + bad.stderr + good.stdout + good.stderr).not.toContain(secret);
    } finally {
      await discord.close();
    }
  });

  it('sms without public_url: a failure naming the setting, and Twilio is not asked; exit 1', async () => {
    const sms = `  sms:\n    enabled: true\n    extra:\n      api_base: ${twilio.url}\n      from: "+15550000000"\n`;
    await setUp(sms, [`TWILIO_ACCOUNT_SID=${SID}`, `TWILIO_AUTH_TOKEN=${TWILIO_TOKEN}`]);
    const requests = twilio.requests.length;
    const result = await doctorJson();
    expect(platformChecks(result.checks)).toEqual([
      {
        id: 'platform:sms',
        name: 'sms',
        status: 'fail',
        finding: 'enabled, but platforms.sms.extra.public_url is not set',
        fix: 'iris config set platforms.sms.extra.public_url <value> (docs/platforms.md)',
      },
      expect.objectContaining({ id: 'platform_access:sms', status: 'ok' }),
      expect.objectContaining({ id: 'platform_owners:sms', status: 'warn' }),
    ]);
    expect(result.code).toBe(1);
    expect(twilio.requests.length).toBe(requests);
    expectNoSecret(result);

    // With it set, the account is checked with those credentials.
    await setUp(`${sms}      public_url: https://iris.example.com/platforms/sms\n`, [`TWILIO_ACCOUNT_SID=${SID}`, `TWILIO_AUTH_TOKEN=${TWILIO_TOKEN}`]);
    const fixed = await doctorJson();
    expect(fixed.checks.find((c) => c.id === 'platform_probe:sms')).toMatchObject({ status: 'ok', finding: expect.stringMatching(/^Twilio account .* is active$/) as string });
    expect(fixed.code).toBe(0);
    expectNoSecret(fixed);
  });

  it('signal with no daemon listening: unreachable, with how to start it; exit 1', async () => {
    const url = await closedPortUrl();
    await setUp(`  signal:\n    enabled: true\n    extra:\n      http_url: ${url}\n      account: "+15550000000"\n`, []);
    const result = await doctorJson();
    const probe = result.checks.find((c) => c.id === 'platform_probe:signal');
    expect(probe).toEqual({
      id: 'platform_probe:signal',
      name: 'signal probe',
      status: 'fail',
      finding: expect.stringMatching(new RegExp(`^signal-cli daemon unreachable at ${url.replace(/\./g, '\\.')}: `)) as string,
      fix: 'start the daemon (signal-cli -a <number> daemon --http 127.0.0.1:8080) and check platforms.signal.extra.http_url',
    });
    expect(result.checks.find((c) => c.id === 'platform:signal')).toMatchObject({ status: 'ok', finding: `signal-cli daemon at ${url}, account +15550000000; no home_channel (/sethome in a chat sets it)` });
    expect(result.code).toBe(1);
  });
  it('slack: both tokens checked live; a refused app token is named, never shown; exit 1', async () => {
    const slack = await startFakeSlack();
    try {
      const yaml = `  slack:\n    enabled: true\n    extra:\n      api_base: ${slack.url}\n      allowed_users: ["U0001"]\n`;
      await setUp(yaml, [`SLACK_BOT_TOKEN=${slack.botToken}`, `SLACK_APP_TOKEN=${slack.appToken}`]);
      const good = await doctorJson();
      expect(platformChecks(good.checks)).toEqual([
        { id: 'platform:slack', name: 'slack', status: 'ok', finding: `SLACK_BOT_TOKEN and SLACK_APP_TOKEN are set; Web API at ${slack.url}, Socket Mode; no home_channel (/sethome in a chat sets it)` },
        expect.objectContaining({ id: 'platform_access:slack', status: 'ok' }),
        expect.objectContaining({ id: 'platform_owners:slack', status: 'warn' }),
        { id: 'platform_probe:slack', name: 'slack probe', status: 'ok', finding: '@iris in Iris Test; Socket Mode available' },
      ]);
      expect(good.code).toBe(0);

      await setUp(yaml, [`SLACK_BOT_TOKEN=${slack.botToken}`, 'SLACK_APP_TOKEN=xapp-1-not-this-one-0123456789']);
      const refused = await doctorJson();
      expect(refused.checks.find((c) => c.id === 'platform_probe:slack')).toMatchObject({
        status: 'fail',
        finding: 'Slack rejected the app-level token in SLACK_APP_TOKEN (invalid_auth)',
        fix: expect.stringContaining('iris config set SLACK_APP_TOKEN <token>') as string,
      });
      expect(refused.code).toBe(1);
      for (const secret of [slack.botToken, slack.appToken, 'xapp-1-not-this-one-0123456789']) {
        expect(refused.stdout + refused.stderr + good.stdout + good.stderr).not.toContain(secret);
      }

      await setUp(yaml, [`SLACK_BOT_TOKEN=${slack.botToken}`]);
      const missing = await doctorJson();
      expect(missing.checks.find((c) => c.id === 'platform:slack')).toMatchObject({ status: 'fail', finding: 'enabled, but SLACK_APP_TOKEN is not set' });
    } finally {
      await slack.close();
    }
  });
});
