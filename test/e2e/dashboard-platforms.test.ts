// The Platforms page's REST API over real HTTP against `bin/iris dashboard`: every endpoint needs
// the token and the right Host; the list shows a configured token only as `set` (its value appears
// nowhere in the answer); approve and revoke act as `iris pairing approve|revoke` do (the CLI
// agrees afterwards); Test queues one message in the outbox. Each write is a line in audit.log.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { outboxRows } from '../helpers/platforms.js';

const TOKEN = '123456789:AAF-dashboard_platforms_token_0123';
const NESTED_SECRET = 'relay-signing-secret-9f8e7d6c5b4a';
const CONFIG = `model:
  provider: openai
  default: main-m
platforms:
  telegram:
    enabled: true
    extra:
      api_base: http://127.0.0.1:9
      owners: [111]
      home_channel: 555
      relay:
        signing_secret: ${NESTED_SECRET}
        region: eu
  slack:
    enabled: true
`;
const TEST_MESSAGE = 'Test message from the Iris dashboard: this chat receives what Iris sends here.';

let dir: string;
let home: string;
let dash: DashboardProcess;

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, '.env'), `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, { mode: 0o600 });
});
afterEach(async () => {
  await dash?.stop();
  await removeDir(dir);
});

/** A pending code from Eve (999) and an approved Ada (222), as the gateway would store them. */
async function seedPairing(): Promise<number> {
  const now = Date.now();
  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    await store.platforms.requestPairing({ platform: 'telegram', userId: '999', userName: 'Eve', chatId: '999', code: 'K7Q2M9XD', createdAt: now - 90_000, expiresAt: now + 3_510_000 }, now);
    await store.platforms.requestPairing({ platform: 'telegram', userId: '222', userName: 'Ada', chatId: '222', code: 'ADA22222', createdAt: now, expiresAt: now + 3_600_000 }, now);
    expect(await store.platforms.approvePairing('telegram', 'ADA22222', now)).toMatchObject({ userId: '222' });
  } finally {
    await store.close();
  }
  return now;
}

const { send, answer } = dashboardApi(() => dash);

type AuditRow = { action: string; target: string; ok: boolean; reason?: string };
async function auditRows(): Promise<Array<[string, string, boolean, string]>> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditRow)
    .map((row) => [row.action, row.target, row.ok, row.reason ?? '']);
}

const pairingList = async () => {
  const listed = await runIris(['pairing', 'list', '--json'], { home });
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as { pending: Array<{ code: string }>; approved: Array<{ user_id: string }> };
};

const ENDPOINTS = [
  ['GET', '/api/platforms', undefined],
  ['POST', '/api/platforms/telegram/pairing/approve', { code: 'K7Q2M9XD' }],
  ['POST', '/api/platforms/telegram/pairing/revoke', { user: '222' }],
  ['POST', '/api/platforms/telegram/test', {}],
  ['GET', '/api/platforms/telegram/outbox/1', undefined],
] as const;

describe('the platforms API', { timeout: 60_000 }, () => {
  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    await seedPairing();
    dash = await startDashboardProcess(home);
    for (const [method, path, body] of ENDPOINTS) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, token: 'wrong' }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect((await pairingList()).pending.map((p) => p.code)).toEqual(['K7Q2M9XD']);
    expect((await pairingList()).approved.map((u) => u.user_id)).toEqual(['222']);
    expect(outboxRows(home)).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('lists each platform: the token only as set (its value nowhere), owners, home channel, codes and users', async () => {
    const seeded = await seedPairing();
    dash = await startDashboardProcess(home);
    const got = await send('/api/platforms');
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(TOKEN);
    expect(got.text).not.toContain('AAF-dashboard');
    expect(got.text).not.toContain(NESTED_SECRET);
    const body = got.json as { gateway: unknown; platforms: Array<Record<string, unknown>> };
    expect(body.gateway).toEqual({ running: false, pid: null });
    expect(body.platforms.map((p) => [p.name, p.enabled])).toEqual([
      ['telegram', true],
      ['discord', false],
      ['slack', true],
      ['signal', false],
      ['sms', false],
    ]);
    const telegram = body.platforms[0]!;
    expect(telegram.settings).toEqual([
      { key: 'group_sessions_per_user', source: 'config', secret: false, value: 'true' },
      { key: 'api_base', source: 'config', secret: false, value: 'http://127.0.0.1:9' },
      { key: 'poll_timeout', source: 'config', secret: false, value: '25' },
      { key: 'relay.signing_secret', source: 'config', secret: true, value: 'set' },
      { key: 'relay.region', source: 'config', secret: false, value: 'eu' },
      { key: 'TELEGRAM_BOT_TOKEN', source: 'env', secret: true, value: 'set' },
    ]);
    expect(telegram.connection).toEqual({ state: 'gateway_stopped', detail: 'the gateway is not running (iris gateway start)', since: null });
    expect(telegram.owners).toEqual(['111']);
    expect(telegram.home_channel).toBe('555');
    const [pending] = telegram.pending as Array<Record<string, unknown>>;
    const { age_seconds: age, ...code } = pending!;
    expect(code).toEqual({ code: 'K7Q2M9XD', user_id: '999', user_name: 'Eve', chat_id: '999', created_at: new Date(seeded - 90_000).toISOString(), expires_at: new Date(seeded + 3_510_000).toISOString() });
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(150);
    expect(telegram.approved).toEqual([{ user_id: '222', user_name: 'Ada', approved_at: new Date(seeded).toISOString() }]);
    const slack = body.platforms[2]!;
    expect((slack.settings as Array<{ key: string; value: string }>).filter((s) => s.key.startsWith('SLACK_'))).toEqual([
      { key: 'SLACK_BOT_TOKEN', source: 'env', secret: true, value: 'not set' },
      { key: 'SLACK_APP_TOKEN', source: 'env', secret: true, value: 'not set' },
    ]);
    expect(slack.home_channel).toBeNull();
  });

  it('without a state.db: empty pairing, nothing created; approve and revoke are 404', async () => {
    dash = await startDashboardProcess(home);
    const body = (await send('/api/platforms')).json as { platforms: Array<{ pending: unknown[]; approved: unknown[] }> };
    expect(body.platforms[0]).toMatchObject({ pending: [], approved: [] });
    expect(await answer('/api/platforms/telegram/pairing/approve', { body: { code: 'K7Q2M9XD' } })).toEqual([404, { error: 'no pending pairing code K7Q2M9XD on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones' }]);
    expect(await answer('/api/platforms/telegram/pairing/revoke', { body: { user: '222' } })).toEqual([404, { error: 'telegram user 222 is not approved; nothing to revoke (iris pairing list shows the approved users)' }]);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('approve: 400 on a bad body or platform, 404 on an unknown code, then the code as iris pairing approve takes it', async () => {
    await seedPairing();
    dash = await startDashboardProcess(home);
    const approve = '/api/platforms/telegram/pairing/approve';
    expect(await answer(approve, { body: {} })).toEqual([400, { error: 'the body must be {"code": "<pairing code>"}' }]);
    expect(await answer(approve, { body: { code: 12345678 } })).toEqual([400, { error: 'the body must be {"code": "<pairing code>"}' }]);
    expect(await answer(approve, { body: { code: 'K7Q2 M9XD' } })).toEqual([400, { error: '"code" must be the pairing code the user was sent (letters and digits)' }]);
    expect(await answer(approve, { raw: '{"code":' })).toEqual([400, { error: 'the body is not JSON' }]);
    expect(await answer('/api/platforms/webhook/pairing/approve', { body: { code: 'K7Q2M9XD' } })).toEqual([400, { error: 'unknown platform "webhook" (platforms: telegram, discord, slack, signal, sms)' }]);
    expect(await answer(approve, { body: { code: 'NOPE2345' } })).toEqual([404, { error: 'no pending pairing code NOPE2345 on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones' }]);
    expect((await pairingList()).pending.map((p) => p.code)).toEqual(['K7Q2M9XD']);

    const approved = await send(approve, { body: { code: 'k7q2m9xd' } });
    const { approved_at: approvedAt, ...user } = approved.json as Record<string, unknown>;
    expect([approved.status, user]).toEqual([200, { platform: 'telegram', user_id: '999', user_name: 'Eve' }]);
    expect(Math.abs(Date.parse(String(approvedAt)) - Date.now())).toBeLessThan(30_000);
    expect(await pairingList()).toMatchObject({ pending: [], approved: [{ user_id: '222' }, { user_id: '999' }] });
    expect(await auditRows()).toEqual([
      ['pairing.approve', 'telegram', false, '400: the body must be {"code": "<pairing code>"}'],
      ['pairing.approve', 'telegram', false, '400: the body must be {"code": "<pairing code>"}'],
      ['pairing.approve', 'telegram', false, '400: "code" must be the pairing code the user was sent (letters and digits)'],
      ['pairing.approve', 'telegram', false, '400: the body is not JSON'],
      ['pairing.approve', 'webhook', false, '400: unknown platform "webhook" (platforms: telegram, discord, slack, signal, sms)'],
      ['pairing.approve', 'telegram:NOPE2345', false, '404: no pending pairing code NOPE2345 on telegram: it expired (codes last an hour) or was never issued; iris pairing list shows the pending ones'],
      ['pairing.approve', 'telegram:999', true, ''],
    ]);
  });

  it('revoke: 400 on a bad body, 404 for a user who is not approved, then the user as iris pairing revoke takes them', async () => {
    await seedPairing();
    dash = await startDashboardProcess(home);
    const revoke = '/api/platforms/telegram/pairing/revoke';
    expect(await answer(revoke, { body: { user: '' } })).toEqual([400, { error: '"user" is empty' }]);
    expect(await answer(revoke, { body: { user: 222 } })).toEqual([400, { error: 'the body must be {"user": "<platform user id>"}' }]);
    expect(await answer(revoke, { body: { user: '222', why: 'x' } })).toEqual([400, { error: 'the body must be {"user": "<platform user id>"}' }]);
    expect(await answer(revoke, { body: { user: '999' } })).toEqual([404, { error: 'telegram user 999 is not approved; nothing to revoke (iris pairing list shows the approved users)' }]);
    expect(await answer(revoke, { body: { user: '222' } })).toEqual([200, { platform: 'telegram', user_id: '222', revoked: true }]);
    expect((await pairingList()).approved).toEqual([]);
    expect(await auditRows()).toEqual([
      ['pairing.revoke', 'telegram', false, '400: "user" is empty'],
      ['pairing.revoke', 'telegram', false, '400: the body must be {"user": "<platform user id>"}'],
      ['pairing.revoke', 'telegram', false, '400: the body must be {"user": "<platform user id>"}'],
      ['pairing.revoke', 'telegram:999', false, '404: telegram user 999 is not approved; nothing to revoke (iris pairing list shows the approved users)'],
      ['pairing.revoke', 'telegram:222', true, ''],
    ]);
  });

  it('test: one message in the outbox for the home channel or the chat given; 409 without either; 400 on a bad body', async () => {
    dash = await startDashboardProcess(home);
    expect(await answer('/api/platforms/telegram/test', { body: { chat: 42 } })).toEqual([400, { error: 'the body must be {} (the home channel) or {"chat": "<chat id>"}' }]);
    expect(await answer('/api/platforms/slack/test', { body: {} })).toEqual([409, { error: 'slack has no home channel: give a chat id, send /sethome in the chat, or iris config set platforms.slack.extra.home_channel <chat id>' }]);
    expect(await answer('/api/platforms/discord/test', { body: {} })).toEqual([409, { error: 'discord is not enabled: iris config set platforms.discord.enabled true' }]);

    expect(await answer('/api/platforms/telegram/test', { body: {} })).toEqual([200, { id: 1, ids: [1], platform: 'telegram', chat_id: '555', state: 'queued' }]);
    expect(await answer('/api/platforms/slack/test', { body: { chat: 'C0123' } })).toEqual([200, { id: 2, ids: [2], platform: 'slack', chat_id: 'C0123', state: 'queued' }]);
    expect(outboxRows(home).map((r) => [r.id, r.platform, r.chat_id, r.text, r.origin, r.state])).toEqual([
      [1, 'telegram', '555', TEST_MESSAGE, null, 'queued'],
      [2, 'slack', 'C0123', TEST_MESSAGE, null, 'queued'],
    ]);
    expect(await answer('/api/platforms/telegram/outbox/1')).toEqual([200, { id: 1, platform: 'telegram', chat_id: '555', state: 'queued', attempts: 0, last_error: null }]);
    expect(await answer('/api/platforms/telegram/outbox/2')).toEqual([404, { error: 'no outbox message 2 on telegram' }]);
    expect(await answer('/api/platforms/telegram/outbox/x')).toEqual([400, { error: 'the outbox id must be a positive whole number' }]);
    expect(await auditRows()).toEqual([
      ['platform.test', 'telegram', false, '400: the body must be {} (the home channel) or {"chat": "<chat id>"}'],
      ['platform.test', 'slack', false, '409: slack has no home channel: give a chat id, send /sethome in the chat, or iris config set platforms.slack.extra.home_channel <chat id>'],
      ['platform.test', 'discord', false, '409: discord is not enabled: iris config set platforms.discord.enabled true'],
      ['platform.test', 'telegram:555', true, ''],
      ['platform.test', 'slack:C0123', true, ''],
    ]);
  });
});
