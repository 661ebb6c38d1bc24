// The route library `iris webhook …` and the dashboard share: the checks that need no file, the
// rows (never a secret), and subscribe/remove against a real subscriptions file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HomePaths } from '../config/home.js';
import { configSchema, type Config } from '../config/schema.js';
import { checkSubscribeInput, removeSubscription, routeRows, sandboxLine, sendTestEvent, subscribeRoute, type SubscribeInput } from './manage-routes.js';

const flag = (field: string) => `--${field}`;
const json = (field: string) => field;
const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const input = (over: Partial<SubscribeInput> = {}): SubscribeInput => ({ name: 'ci', events: [], deliverExtra: {}, skills: [], toolsets: [], ...over });

function config(): Config {
  const parsed = configSchema.safeParse({
    platforms: { webhook: { enabled: true, extra: { host: '127.0.0.1', port: 0, routes: { 'static-pr': { secret: 's'.repeat(24), events: ['pull_request'], filters: [{ field: 'action', in: ['opened'] }] } } } } },
  });
  if (!parsed.success) throw new Error('the config did not parse');
  return parsed.data;
}

describe('checkSubscribeInput', () => {
  it('names the caller\'s own field in each refusal', () => {
    expect(checkSubscribeInput(input(), flag)).toBeUndefined();
    expect(checkSubscribeInput(input({ name: '../x' }), flag)).toEqual({ code: 'bad_input', message: `route name "../x" ${RULE}` });
    expect(checkSubscribeInput(input({ skills: ['ok', 'A/B'] }), flag)).toEqual({ code: 'bad_input', message: `skill name "A/B" ${RULE}` });
    expect(checkSubscribeInput(input({ deliver: 'fax' }), flag)).toEqual({ code: 'bad_input', message: '--deliver must be one of log, forge_comment, sms, telegram, discord, slack, signal (got "fax")' });
    expect(checkSubscribeInput(input({ deliver: 'fax' }), json)?.message).toMatch(/^deliver must be one of /);
    expect(checkSubscribeInput(input({ secret: '  ' }), flag)).toEqual({ code: 'bad_input', message: '--secret cannot be empty (leave it out to get a random one)' });
    expect(checkSubscribeInput(input({ sandbox: 'docker' }), flag)).toEqual({ code: 'bad_input', message: '--sandbox must be one of bubblewrap, off (got "docker")' });
    expect(checkSubscribeInput(input({ sandboxEnv: ['GH_TOKEN', 'A=B'] }), (field) => `--${field.replaceAll('_', '-')}`)).toEqual({
      code: 'bad_input',
      message: '--sandbox-env takes environment variable names (got "A=B")',
    });
    expect(checkSubscribeInput(input({ sandbox: 'off', sandboxNetwork: true, sandboxEnv: ['GH_TOKEN'] }), flag)).toBeUndefined();
  });
});

describe('sandboxLine', () => {
  it('says the mode and what it passes in, or who decides when the route says nothing', () => {
    expect(sandboxLine({})).toBe('as tools.terminal.sandbox');
    expect(sandboxLine({ sandbox: 'bubblewrap', sandbox_network: false, sandbox_env: ['GH_TOKEN', 'NPM_TOKEN'] })).toBe('bubblewrap (network off; env GH_TOKEN, NPM_TOKEN)');
    expect(sandboxLine({ sandbox: 'off' })).toBe('off');
    expect(sandboxLine({ sandbox_network: true, sandbox_env: [] })).toBe('as tools.terminal.sandbox (network on)');
  });
});

describe('routeRows', () => {
  it('config.yaml routes first, then subscriptions; has_secret but never the secret', () => {
    const rows = routeRows(config(), { ci: { enabled: true, secret: 'x'.repeat(32), events: ['push'], filters: [], skills: [], toolsets: [], deliver: 'log', deliver_extra: { a: 1 }, session: 'per_event', commands: false, coalesce_seconds: 30 } }, 'http://h:1');
    expect(rows).toEqual([
      { name: 'static-pr', source: 'config', enabled: true, events: ['pull_request'], filters: [{ field: 'action', in: ['opened'] }], deliver: 'log', deliver_extra: {}, url: 'http://h:1/webhooks/static-pr', has_secret: true },
      { name: 'ci', source: 'subscription', enabled: true, events: ['push'], filters: [], deliver: 'log', deliver_extra: { a: 1 }, url: 'http://h:1/webhooks/ci', has_secret: true },
    ]);
    expect(JSON.stringify(rows)).not.toContain('x'.repeat(32));
  });
});

describe('subscribe, remove and test against a home', () => {
  let dir: string;
  let paths: HomePaths;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iris-manage-routes-'));
    paths = { dir } as HomePaths;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a new subscription shows its secret once; subscribing again keeps it and shows nothing', async () => {
    const first = await subscribeRoute(paths, config(), input({ events: ['push'], prompt: 'Build {ref}' }), json);
    if (!first.ok) throw new Error(first.error.message);
    expect(first).toMatchObject({ name: 'ci', url: 'http://127.0.0.1:0/webhooks/ci', updated: false, deliver: 'log', secretShown: expect.stringMatching(/^[0-9a-f]{64}$/) as string });
    const again = await subscribeRoute(paths, config(), input({ events: ['tag'] }), json);
    expect(again).toMatchObject({ ok: true, updated: true, secretShown: undefined, subscription: { events: ['tag'], secret: first.secretShown } });
    const file = JSON.parse(await readFile(join(dir, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, { secret: string }> };
    expect(file.subscriptions.ci?.secret).toBe(first.secretShown);
  });

  it('keeps the sandbox settings given, and a later subscribe without them keeps them too', async () => {
    const first = await subscribeRoute(paths, config(), input({ sandbox: 'bubblewrap', sandboxNetwork: false, sandboxEnv: ['GH_TOKEN'] }), json);
    expect(first).toMatchObject({ ok: true, subscription: { sandbox: 'bubblewrap', sandbox_network: false, sandbox_env: ['GH_TOKEN'] } });
    const again = await subscribeRoute(paths, config(), input({ events: ['push'], sandboxNetwork: true }), json);
    expect(again).toMatchObject({ ok: true, subscription: { sandbox: 'bubblewrap', sandbox_network: true, sandbox_env: ['GH_TOKEN'] } });
    const file = JSON.parse(await readFile(join(dir, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, object> };
    expect(file.subscriptions.ci).toMatchObject({ sandbox: 'bubblewrap', sandbox_network: true, sandbox_env: ['GH_TOKEN'] });
    const plain = await subscribeRoute(paths, config(), input({ name: 'plain' }), json);
    if (!plain.ok) throw new Error(plain.error.message);
    expect(Object.keys(plain.subscription)).not.toContain('sandbox');
  });

  it('refuses a config.yaml name and an unworkable route, writing nothing', async () => {
    expect(await subscribeRoute(paths, config(), input({ name: 'static-pr' }), json)).toEqual({
      ok: false,
      error: { code: 'static_route', message: 'a route named "static-pr" is defined in config.yaml (platforms.webhook.extra.routes.static-pr); it would win over a subscription, so pick another name' },
    });
    expect(await subscribeRoute(paths, config(), input({ toolsets: ['nope'] }), json)).toMatchObject({ ok: false, error: { code: 'invalid_value', message: expect.stringContaining('unknown toolset "nope"') as string } });
    await expect(readFile(join(dir, 'webhook_subscriptions.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('remove: a subscription goes; a config.yaml route and an unknown name are refused by kind', async () => {
    await subscribeRoute(paths, config(), input(), json);
    expect(await removeSubscription(paths, config(), 'ci')).toEqual({ ok: true, removed: 'ci' });
    expect(await removeSubscription(paths, config(), 'ci')).toEqual({ ok: false, error: { code: 'unknown_route', message: 'no subscription named "ci" (iris webhook list shows them)' } });
    expect(await removeSubscription(paths, config(), 'static-pr')).toEqual({
      ok: false,
      error: { code: 'static_route', message: '"static-pr" is a config.yaml route, not a subscription; remove it from platforms.webhook.extra.routes' },
    });
  });

  it('test: a payload that is not an object is refused before the gateway is looked for; no gateway sends nothing', async () => {
    const made = await subscribeRoute(paths, config(), input({ events: ['push'] }), json);
    if (!made.ok) throw new Error(made.error.message);
    const subscriptions = { ci: made.subscription };
    expect(await sendTestEvent(paths, config(), subscriptions, 'ci', { payload: { text: '{' } }, flag)).toEqual({ ok: false, error: { code: 'bad_input', message: '--payload is not valid JSON' } });
    expect(await sendTestEvent(paths, config(), subscriptions, 'ci', { payload: { value: [1] } }, json)).toEqual({ ok: false, error: { code: 'bad_input', message: 'payload must be a JSON object' } });
    expect(await sendTestEvent(paths, config(), subscriptions, 'constructor', {}, json)).toEqual({ ok: false, error: { code: 'unknown_route', message: 'no subscription named "constructor" (iris webhook list shows them)' } });
    expect(await sendTestEvent(paths, config(), subscriptions, 'ci', {}, json)).toEqual({
      ok: false,
      error: { code: 'gateway_not_running', message: `this home's gateway is not running (no ${join(dir, 'gateway.pid')}), so nothing was sent; start it with iris gateway start` },
    });
  });
});
