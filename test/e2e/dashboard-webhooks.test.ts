// The Webhooks page's REST API (issue 39) over real HTTP against `bin/iris dashboard`: the route
// list with its last delivery, subscribe (the secret in that one answer only), remove and a signed
// test event, each refusal with its status and message, each write a line in logs/audit.log, and
// the CLI (`iris webhook list|deliveries`) agreeing with what the API did.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { stringContaining, stringMatching } from '../helpers/documents.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const STATIC_SECRET = 'static-secret-0123456789abcdef';
const CONFIG = `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        static-pr:\n          secret: ${STATIC_SECRET}\n          events: [pull_request]\n          filters:\n            - field: action\n              in: [opened, synchronize]\n          deliver: log\n`;
const RULE = 'must match ^[a-z0-9][a-z0-9._-]{0,63}$ (lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64) and cannot contain ".."';
const SHAPE =
  'send {"name": "<route>", "events"?: ["pull_request", …], "prompt"?: "<template>", "deliver"?: "log", "deliver_extra"?: {"key": "value"}, "skills"?: […], "toolsets"?: […], "sandbox"?: "bubblewrap" | "off", "sandbox_network"?: true, "sandbox_env"?: ["NAME", …]} (no secret: a new one is made and shown once)';

let fake: FakeUpstream;
let dir: string;
let home: string;
let dash: DashboardProcess;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir('iris-dashboard-webhooks-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  dash = await startDashboardProcess(home, env());
});
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.stop('SIGKILL');
  await dash.stop();
  await removeDir(dir);
});

function env(): Record<string, string> {
  return { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` };
}

const { send, answer } = dashboardApi(() => dash);

type AuditRow = { action: string; target: string; ok: boolean; reason?: string };
async function audit(): Promise<Array<[string, string, boolean, string]>> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditRow)
    .map((row) => [row.action, row.target, row.ok, row.reason ?? '']);
}

const cliList = async () => JSON.parse((await runIris(['webhook', 'list', '--json'], { home })).stdout) as unknown;
const STATIC_ROW = {
  name: 'static-pr',
  source: 'config',
  enabled: true,
  events: ['pull_request'],
  filters: [{ field: 'action', in: ['opened', 'synchronize'] }],
  deliver: 'log',
  deliver_extra: {},
  url: 'http://127.0.0.1:0/webhooks/static-pr',
  has_secret: true,
  last_delivery: null,
};

describe('the webhooks API', { timeout: 90_000 }, () => {
  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    const endpoints = [
      ['GET', '/api/webhooks', undefined],
      ['POST', '/api/webhooks', { name: 'ci' }],
      ['DELETE', '/api/webhooks/ci', undefined],
      ['POST', '/api/webhooks/ci/test', {}],
    ] as const;
    for (const [method, path, body] of endpoints) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect(await cliList()).toEqual([{ name: 'static-pr', source: 'config', enabled: true, events: ['pull_request'], deliver: 'log', url: 'http://127.0.0.1:0/webhooks/static-pr', has_secret: true }]);
    expect(await audit()).toEqual([]);
  });

  it('lists the routes: config.yaml ones with their filters, no secret anywhere', async () => {
    const got = await send('/api/webhooks');
    expect([got.status, got.json]).toEqual([
      200,
      {
        platform_enabled: true,
        listener: 'http://127.0.0.1:0',
        deliver_targets: ['log', 'forge_comment', 'sms', 'telegram', 'discord', 'slack', 'signal'],
        routes: [STATIC_ROW],
        problems: [],
      },
    ]);
    expect(got.text).not.toContain(STATIC_SECRET);
  });

  it('refuses bad bodies and names with 400, a config.yaml name with 409, and an unknown one with 404', async () => {
    expect(await answer('/api/webhooks', { body: {} })).toEqual([400, { error: `name must be a string; ${SHAPE}` }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', secret: 'mine-0123456789abcdef' } })).toEqual([400, { error: `unknown field "secret"; ${SHAPE}` }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', events: 'push' } })).toEqual([400, { error: `events must be an array; ${SHAPE}` }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', events: ['push\r\nx-evil: 1'] } })).toEqual([400, { error: 'event "push\\r\\nx-evil: 1" must be letters, digits, _ . : or - (at most 100)' }]);
    expect(await answer('/api/webhooks', { body: { name: '../x' } })).toEqual([400, { error: `route name "../x" ${RULE}` }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', skills: ['../etc'] } })).toEqual([400, { error: `skill name "../etc" ${RULE}` }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', deliver: 'fax' } })).toEqual([400, { error: 'deliver must be one of log, forge_comment, sms, telegram, discord, slack, signal (got "fax")' }]);
    expect(await answer('/api/webhooks', { body: { name: 'ci', deliver: 'forge_comment' } })).toEqual([
      400,
      { error: 'route "ci" delivers a forge_comment but subscription ci.deliver_extra has no repo and pr_number (for example repo: "{repository.full_name}", pr_number: "{number}")' },
    ]);
    expect(await answer('/api/webhooks', { raw: '{"name":' })).toEqual([400, { error: 'the body is not JSON' }]);
    expect(await answer('/api/webhooks', { body: { name: 'static-pr' } })).toEqual([
      409,
      { error: 'a route named "static-pr" is defined in config.yaml (platforms.webhook.extra.routes.static-pr); it would win over a subscription, so pick another name' },
    ]);
    expect(await answer('/api/webhooks/static-pr', { method: 'DELETE' })).toEqual([409, { error: '"static-pr" is a config.yaml route, not a subscription; remove it from platforms.webhook.extra.routes' }]);
    expect(await answer('/api/webhooks/nope', { method: 'DELETE' })).toEqual([404, { error: 'no subscription named "nope" (iris webhook list shows them)' }]);
    expect(await answer('/api/webhooks/..%2Fx', { method: 'DELETE' })).toEqual([400, { error: `route name "../x" ${RULE}` }]);
    expect(await answer('/api/webhooks/nope/test', { body: {} })).toEqual([404, { error: 'no subscription named "nope" (iris webhook list shows them)' }]);
    expect(await answer('/api/webhooks/static-pr/test', { body: {} })).toEqual([
      409,
      { error: '"static-pr" is a config.yaml route; iris webhook test works for subscriptions only (send a signed event from the code host, or use a subscription)' },
    ]);
    expect(await answer('/api/webhooks/nope/test', { body: { payload: [1] } })).toEqual([404, { error: 'no subscription named "nope" (iris webhook list shows them)' }]);
    expect(await answer('/api/webhooks/nope/test', { body: { secret: 'x' } })).toEqual([400, { error: 'send {"event"?: "<event name>", "payload"?: {…}} ({} sends a sample of the route\'s first event)' }]);
    expect((await cliList() as unknown[]).length).toBe(1);
    // audit.log cuts a reason at 200 characters.
    const cut = (rows: Array<[string, string, boolean, string]>) => rows.map(([a, t, ok, reason]) => [a, t, ok, reason.length > 200 ? `${reason.slice(0, 200)}…` : reason]);
    expect(await audit()).toEqual(cut([
      ['webhook.subscribe', '', false, `400: name must be a string; ${SHAPE}`],
      ['webhook.subscribe', '', false, `400: unknown field "secret"; ${SHAPE}`],
      ['webhook.subscribe', '', false, `400: events must be an array; ${SHAPE}`],
      ['webhook.subscribe', '', false, '400: event "push\\r\\nx-evil: 1" must be letters, digits, _ . : or - (at most 100)'],
      ['webhook.subscribe', '../x', false, `400: route name "../x" ${RULE}`],
      ['webhook.subscribe', 'ci', false, `400: skill name "../etc" ${RULE}`],
      ['webhook.subscribe', 'ci', false, '400: deliver must be one of log, forge_comment, sms, telegram, discord, slack, signal (got "fax")'],
      [
        'webhook.subscribe',
        'ci',
        false,
        '400: route "ci" delivers a forge_comment but subscription ci.deliver_extra has no repo and pr_number (for example repo: "{repository.full_name}", pr_number: "{number}")',
      ],
      ['webhook.subscribe', '', false, '400: the body is not JSON'],
      ['webhook.subscribe', 'static-pr', false, '409: a route named "static-pr" is defined in config.yaml (platforms.webhook.extra.routes.static-pr); it would win over a subscription, so pick another name'],
      ['webhook.remove', 'static-pr', false, '409: "static-pr" is a config.yaml route, not a subscription; remove it from platforms.webhook.extra.routes'],
      ['webhook.remove', 'nope', false, '404: no subscription named "nope" (iris webhook list shows them)'],
      ['webhook.remove', '../x', false, `400: route name "../x" ${RULE}`],
      ['webhook.test', 'nope', false, '404: no subscription named "nope" (iris webhook list shows them)'],
      ['webhook.test', 'static-pr', false, '409: "static-pr" is a config.yaml route; iris webhook test works for subscriptions only (send a signed event from the code host, or use a subscription)'],
      ['webhook.test', 'nope', false, '404: no subscription named "nope" (iris webhook list shows them)'],
      ['webhook.test', 'nope', false, '400: send {"event"?: "<event name>", "payload"?: {…}} ({} sends a sample of the route\'s first event)'],
    ]));
  });

  it('subscribes: the secret once (201), an update keeps it and hides it (200), the list and the CLI show has_secret only; then removes', async () => {
    const body = { name: 'ci', events: ['push', ' '], prompt: 'Build {ref}', deliver: 'log', deliver_extra: { note: 'x' } };
    const first = await send('/api/webhooks', { body });
    expect(first.status).toBe(201);
    const created = first.json as { secret: string };
    expect(created).toEqual({ name: 'ci', url: 'http://127.0.0.1:0/webhooks/ci', updated: false, events: ['push'], deliver: 'log', deliver_extra: { note: 'x' }, secret: stringMatching(/^[0-9a-f]{64}$/) });
    const stored = JSON.parse(await readFile(join(home, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, { secret: string; prompt: string }> };
    expect(stored.subscriptions.ci).toMatchObject({ secret: created.secret, prompt: 'Build {ref}', events: ['push'] });

    // Again: an update, the secret kept and not shown.
    expect(await answer('/api/webhooks', { body: { name: 'ci', events: ['push', 'tag'] } })).toEqual([
      200,
      { name: 'ci', url: 'http://127.0.0.1:0/webhooks/ci', updated: true, events: ['push', 'tag'], deliver: 'log', deliver_extra: {}, secret: null },
    ]);
    const again = JSON.parse(await readFile(join(home, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, { secret: string }> };
    expect(again.subscriptions.ci!.secret).toBe(created.secret);

    const list = await send('/api/webhooks');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.secret);
    expect((list.json as { routes: unknown[] }).routes).toEqual([
      STATIC_ROW,
      { name: 'ci', source: 'subscription', enabled: true, events: ['push', 'tag'], filters: [], deliver: 'log', deliver_extra: {}, url: 'http://127.0.0.1:0/webhooks/ci', has_secret: true, last_delivery: null },
    ]);
    const cli = await runIris(['webhook', 'list', '--json'], { home });
    expect(cli.stdout).not.toContain(created.secret);
    expect(JSON.parse(cli.stdout)).toEqual([
      expect.objectContaining({ name: 'static-pr' }),
      { name: 'ci', source: 'subscription', enabled: true, events: ['push', 'tag'], deliver: 'log', url: 'http://127.0.0.1:0/webhooks/ci', has_secret: true },
    ]);

    expect(await answer('/api/webhooks/ci', { method: 'DELETE' })).toEqual([200, { removed: 'ci' }]);
    expect(await answer('/api/webhooks/ci', { method: 'DELETE' })).toEqual([404, { error: 'no subscription named "ci" (iris webhook list shows them)' }]);
    expect(await cliList()).toEqual([expect.objectContaining({ name: 'static-pr' })]);
    const audited = await audit();
    expect(audited).toEqual([
      ['webhook.subscribe', 'ci', true, ''],
      ['webhook.subscribe', 'ci', true, ''],
      ['webhook.remove', 'ci', true, ''],
      ['webhook.remove', 'ci', false, '404: no subscription named "ci" (iris webhook list shows them)'],
    ]);
    expect(await readFile(join(home, 'logs', 'audit.log'), 'utf8')).not.toContain(created.secret);
  });

  it('a test event: 409 without a running gateway, nothing sent; with one it is accepted (202) and iris webhook deliveries lists it', async () => {
    expect((await send('/api/webhooks', { body: { name: 'ci', events: ['push'], prompt: 'Build {ref}' } })).status).toBe(201);
    expect(await answer('/api/webhooks/ci/test', { body: {} })).toEqual([
      409,
      { error: `this home's gateway is not running (no ${join(home, 'gateway.pid')}), so nothing was sent; start it with iris gateway start` },
    ]);

    const gateway = await startGatewayProcess(home, env());
    gateways.push(gateway);
    fake.script('main-m', { kind: 'text', deltas: ['Build looks fine.'] }, { kind: 'text', deltas: ['CI title'] });
    const tested = await answer('/api/webhooks/ci/test', { body: { payload: { ref: 'main' } } });
    expect(tested).toEqual([
      200,
      { status: 202, body: expect.objectContaining({ status: 'accepted', route: 'ci', event: 'push' }) as unknown, delivery_id: stringMatching(/^test-[0-9a-f-]{36}$/), event: 'push', sample: null },
    ]);
    const deliveryId = (tested[1] as { delivery_id: string }).delivery_id;
    const row = await waitFor(
      async () => {
        const [first] = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Array<{ id: number; state: string; delivery_id: string; route: string; event: string; received_at: string }>;
        return first?.state === 'delivered' ? first : undefined;
      },
      20_000,
      'the test event to be delivered',
    );
    expect([row.route, row.event, row.delivery_id]).toEqual(['ci', 'push', deliveryId]);

    // The route now links to it, with the gateway's real address.
    const list = (await send('/api/webhooks')).json as { listener: string; routes: Array<{ name: string; url: string; last_delivery: unknown }> };
    expect(list.listener).toBe(gateway.url);
    expect(list.routes.find((route) => route.name === 'ci')).toMatchObject({
      url: `${gateway.url}/webhooks/ci`,
      last_delivery: { id: row.id, state: 'delivered', received_at: row.received_at, updated_at: stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });

    // A sample of the route's first event when no payload is given.
    fake.script('main-m', { kind: 'text', deltas: ['ok'] }, { kind: 'text', deltas: ['t'] });
    expect(await answer('/api/webhooks/ci/test', { body: {} })).toEqual([
      200,
      { status: 202, body: expect.objectContaining({ status: 'accepted', event: 'push' }) as unknown, delivery_id: stringMatching(/^test-/), event: 'push', sample: stringContaining('push') },
    ]);
    expect(await audit()).toEqual([
      ['webhook.subscribe', 'ci', true, ''],
      ['webhook.test', 'ci', false, `409: this home's gateway is not running (no ${join(home, 'gateway.pid')}), so nothing was sent; start it with iris gateway start`],
      ['webhook.test', 'ci', true, ''],
      ['webhook.test', 'ci', true, ''],
    ]);
  });
});
