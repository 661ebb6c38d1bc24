// The gateway's start-up checks and background management, and the dynamic subscription commands,
// through bin/iris as a subprocess.
import { createServer, type Server } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { failedStart, postEvent, startGatewayProcess, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await runIris(['gateway', 'stop'], { home });
  await removeDir(dir);
});

const modelEnv = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const MODEL = 'model:\n  provider: openai\n  default: main-m\n';

async function configure(webhook: string, model = MODEL): Promise<void> {
  await writeFile(join(home, 'config.yaml'), `${model}platforms:\n  webhook:\n${webhook}`, { mode: 0o600 });
}

const routes = (body: string, host = '127.0.0.1', port = 0) =>
  `    enabled: true\n    extra:\n      host: ${host}\n      port: ${port}\n      routes:\n${body}`;

describe('start-up checks: no partial start', () => {
  const cases: Array<[string, string, string, number]> = [
    ['a route with no secret', routes('        pr:\n          events: [pull_request]\n'), 'route "pr" has no secret: set platforms.webhook.extra.routes.pr.secret or platforms.webhook.extra.secret', 2],
    [
      'INSECURE_NO_AUTH on a non-loopback host',
      routes('        pr:\n          secret: INSECURE_NO_AUTH\n', '0.0.0.0'),
      'route "pr" uses INSECURE_NO_AUTH, which is only allowed on a loopback host (listening on 0.0.0.0)',
      2,
    ],
    [
      'forge_comment without repo and pr_number',
      routes('        pr:\n          secret: s-0123456789abcdef\n          deliver: forge_comment\n'),
      'route "pr" delivers a forge_comment but platforms.webhook.extra.routes.pr.deliver_extra has no repo and pr_number',
      2,
    ],
    // A route to a platform that is not enabled is disabled, not refused (below, and test/e2e/platform-sms.test.ts).
    ['an unknown deliver value', routes('        pr:\n          secret: s-0123456789abcdef\n          deliver: carrier-pigeon\n'), 'platforms.webhook.extra.routes.pr.deliver: ', 2],
    [
      'a route secret of spaces (which HMAC would accept as a key)',
      routes('        pr:\n          secret: "   "\n'),
      'route "pr" has no secret: set platforms.webhook.extra.routes.pr.secret or platforms.webhook.extra.secret',
      2,
    ],
    [
      'a route secret under 16 characters once trimmed',
      routes('        pr:\n          secret: "  fifteen-chars-x  "\n'),
      'route "pr" has a secret of 15 characters: use at least 16 (for example: openssl rand -hex 32) in platforms.webhook.extra.routes.pr.secret or platforms.webhook.extra.secret',
      2,
    ],
    [
      'a short global secret, naming every route that uses it',
      '    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      secret: short-global\n      routes:\n        a:\n          events: [push]\n        b:\n          events: [ping]\n',
      'iris: error: route "a" has a secret of 12 characters: use at least 16 (for example: openssl rand -hex 32) in platforms.webhook.extra.routes.a.secret or platforms.webhook.extra.secret\niris: error: route "b" has a secret of 12 characters',
      2,
    ],
    [
      'an unknown toolset',
      routes('        pr:\n          secret: s-0123456789abcdef\n          toolsets: [default, browser]\n'),
      'route "pr" names unknown toolset "browser" (known: terminal, files, files-readonly, skills, mcp, service-webhook, default)',
      2,
    ],
    ['the platform turned off', '    enabled: false\n', 'no platform is enabled: set platforms.webhook.enabled to true', 2],
  ];
  it.each(cases)('refuses %s', async (_name, webhook, message, code) => {
    await configure(webhook);
    const result = await failedStart(home, modelEnv());
    expect(result.code).toBe(code);
    expect(result.output).toContain(message);
    expect(result.output).not.toContain('gateway listening');
    await expect(stat(join(home, 'gateway.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a route to a chat platform that is not enabled and disables it (403); the other routes serve', async () => {
    await configure(routes('        pr:\n          secret: s-0123456789abcdef\n          deliver: slack\n        ok:\n          secret: s-0123456789abcdef\n'));
    const gateway = await startGatewayProcess(home, modelEnv());
    try {
      expect(gateway.output()).toContain('warning: route "pr" delivers to slack, which is not enabled (set platforms.slack.enabled: true and its settings; docs/platforms.md); the route is disabled (403) until that is fixed');
      expect((await postEvent(gateway.url, 'pr', { number: 1 }, { secret: 's-0123456789abcdef' })).status).toBe(403);
      expect((await postEvent(gateway.url, 'ok', { number: 1 }, { secret: 's-0123456789abcdef' })).status).toBe(202);
    } finally {
      await gateway.stop();
    }
  });

  it('refuses to start without a main model', async () => {
    await configure(routes('        pr:\n          secret: s-0123456789abcdef\n'), '');
    const result = await failedStart(home);
    expect(result.code).toBe(2);
    expect(result.output).toContain("no main model is configured (model: ''), so no event could run");
  });

  it('says when the port is in use, and how to change it', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await configure(routes('        pr:\n          secret: s-0123456789abcdef\n', '127.0.0.1', port));
      const result = await failedStart(home, modelEnv());
      expect(result.code).toBe(1);
      expect(result.output).toContain(`port ${port} on 127.0.0.1 is already in use (another gateway or program); choose another with iris config set platforms.webhook.extra.port <port>`);
      await expect(stat(join(home, 'gateway.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      blocker.close();
    }
  });

  it('allows INSECURE_NO_AUTH on loopback, names each route and its URL, and refuses a second gateway on the same home', async () => {
    await configure(routes('        local:\n          secret: INSECURE_NO_AUTH\n          events: [push]\n        off:\n          enabled: false\n'));
    const gateway = await startGatewayProcess(home, modelEnv());
    running.push(gateway);
    expect(gateway.output()).toContain(`route local (config): POST ${gateway.url}/webhooks/local → deliver log, events push`);
    const second = await failedStart(home, modelEnv());
    expect(second.code).toBe(1);
    expect(second.output).toContain(`a gateway is running already for ${home} (pid ${gateway.child.pid})`);
    const status = await runIris(['status', '--json'], { home, env: modelEnv() });
    expect(JSON.parse(status.stdout)).toMatchObject({ gateway: { state: 'running', pid: gateway.child.pid } });
  });
});

describe('iris gateway run: signals', () => {
  it('a SIGTERM the moment the listening line is out stops the gateway gracefully, not by the signal', async () => {
    await configure(routes('        pr:\n          secret: s-0123456789abcdef\n'));
    // The signal follows the line at once: the gateway must be catching it by then (it used to
    // install its handlers only after printing, so the default action could kill it).
    for (let round = 0; round < 5; round++) {
      const gateway = await startGatewayProcess(home, modelEnv());
      running.push(gateway);
      expect(await gateway.stop('SIGTERM'), gateway.output()).toEqual({ code: 0, signal: null });
      expect(gateway.output()).toContain('gateway stopped');
    }
  });
});

describe('iris gateway start | status | restart | stop', () => {
  it('manages a background gateway through its pid file', async () => {
    await configure(routes('        pr:\n          secret: s-0123456789abcdef\n', '127.0.0.1', 0).replace('port: 0', `port: ${await freePort()}`));
    const env = modelEnv();
    expect((await runIris(['gateway', 'status'], { home, env })).code).toBe(1);
    const started = await runIris(['gateway', 'start', '--json'], { home, env });
    expect(started.code).toBe(0);
    const info = JSON.parse(started.stdout) as { pid: number; url: string };
    expect((await fetch(`${info.url}/health`)).status).toBe(200);
    expect((await readFile(join(home, 'gateway.pid'), 'utf8')).trim()).toBe(String(info.pid));
    const status = await runIris(['gateway', 'status'], { home, env });
    expect(status).toMatchObject({ code: 0, stdout: `gateway: running (pid ${info.pid}), answering at ${info.url}\n` });
    expect((await runIris(['gateway', 'start'], { home, env })).stderr).toContain(`a gateway is running already (pid ${info.pid})`);

    const restarted = await runIris(['gateway', 'restart', '--json'], { home, env });
    expect(restarted.code).toBe(0);
    const after = JSON.parse(restarted.stdout) as { pid: number };
    expect(after.pid).not.toBe(info.pid);

    expect(await runIris(['gateway', 'stop'], { home, env })).toMatchObject({ code: 0, stdout: `gateway stopped (pid ${after.pid})\n` });
    await expect(stat(join(home, 'gateway.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await runIris(['gateway', 'stop'], { home, env })).toMatchObject({ code: 0, stdout: 'the gateway is not running\n' });
  });

  it('start reports a gateway that refuses to start, with its reason', async () => {
    await configure(routes('        pr:\n          events: [push]\n'));
    const result = await runIris(['gateway', 'start'], { home, env: modelEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the gateway did not start (exit code 2)');
    expect(result.stderr).toContain('route "pr" has no secret');
  });
});

describe('iris webhook subscribe | list | test | remove', () => {
  it('adds a route a running gateway serves at once, tests it with a signed event, and removes it', async () => {
    await configure(routes('        static-pr:\n          secret: static-secret-0123456789abcdef\n'));
    const gateway = await startGatewayProcess(home, modelEnv());
    running.push(gateway);
    // The CLI finds the running listener where it said it listens (config.yaml says port 0).

    const subscribed = await runIris(['webhook', 'subscribe', 'ci', '--events', 'push,pull_request', '--prompt', 'Build {ref}', '--json'], { home });
    expect(subscribed.code).toBe(0);
    const info = JSON.parse(subscribed.stdout) as { secret: string; url: string; updated: boolean };
    expect(info).toMatchObject({ updated: false, url: `${gateway.url}/webhooks/ci` });
    expect(info.secret).toMatch(/^[0-9a-f]{64}$/);
    const file = join(home, 'webhook_subscriptions.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1, subscriptions: { ci: { events: ['push', 'pull_request'], prompt: 'Build {ref}', secret: info.secret } } });

    // Shown once: subscribing again keeps the secret and does not print it.
    const again = await runIris(['webhook', 'subscribe', 'ci', '--events', 'push'], { home });
    expect(again.stdout).toContain('updated ci: POST');
    expect(again.stdout).toContain('secret: unchanged');
    expect(again.stdout).not.toContain(info.secret);

    const listed = await runIris(['webhook', 'list', '--json'], { home });
    expect(listed.stdout).not.toContain(info.secret);
    expect(listed.stdout).not.toContain('static-secret-0123456789abcdef');
    expect((JSON.parse(listed.stdout) as Array<{ name: string; source: string }>).map((r) => [r.name, r.source])).toEqual([
      ['static-pr', 'config'],
      ['ci', 'subscription'],
    ]);

    // The running gateway serves it without a restart, signed with the stored secret.
    const tested = await runIris(['webhook', 'test', 'ci', '--payload', '{"ref":"main"}', '--json'], { home });
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({ status: 202, body: { status: 'accepted', route: 'ci', event: 'push' }, event: 'push' });
    expect((await postEvent(gateway.url, 'ci', { ref: 'x' }, { secret: info.secret, event: 'push' })).status).toBe(202);

    const configRoute = await runIris(['webhook', 'test', 'static-pr'], { home });
    expect(configRoute.code).toBe(2);
    expect(configRoute.stderr).toContain('iris webhook test works for subscriptions only');

    expect(await runIris(['webhook', 'remove', 'ci'], { home })).toMatchObject({ code: 0, stdout: 'removed ci\n' });
    expect((await postEvent(gateway.url, 'ci', {}, { secret: info.secret })).status).toBe(404);
    expect((await runIris(['webhook', 'remove', 'ci'], { home })).code).toBe(1);
    expect((await runIris(['webhook', 'remove', 'static-pr'], { home })).stderr).toContain('is a config.yaml route, not a subscription');
  });

  it('sets the sandbox of a subscription from its flags, keeps it on a later subscribe, and refuses a mode it does not know (exit 2)', async () => {
    await configure(routes('        static-pr:\n          secret: static-secret-0123456789abcdef\n'));
    const first = await runIris(['webhook', 'subscribe', 'ci', '--sandbox', 'bubblewrap', '--sandbox-network', '--sandbox-env', 'GH_TOKEN, NPM_TOKEN'], { home });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('\n  sandbox: bubblewrap (network on; env GH_TOKEN, NPM_TOKEN)\n');
    const file = join(home, 'webhook_subscriptions.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ subscriptions: { ci: { sandbox: 'bubblewrap', sandbox_network: true, sandbox_env: ['GH_TOKEN', 'NPM_TOKEN'] } } });

    const again = await runIris(['webhook', 'subscribe', 'ci', '--no-sandbox-network', '--json'], { home });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: true, sandbox: 'bubblewrap', sandbox_network: false, sandbox_env: ['GH_TOKEN', 'NPM_TOKEN'] });

    const before = await readFile(file, 'utf8');
    const bad = await runIris(['webhook', 'subscribe', 'ci', '--sandbox', 'docker'], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sandbox must be one of bubblewrap, off (got "docker")');
    const badEnv = await runIris(['webhook', 'subscribe', 'ci', '--sandbox-env', 'GH_TOKEN,$(id)'], { home });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain('--sandbox-env takes environment variable names (got "$(id)")');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('refuses bad names, a name a config route has, and routes that could not work', async () => {
    await configure(routes('        taken:\n          secret: s-0123456789abcdef\n'));
    expect((await runIris(['webhook', 'subscribe', 'Bad Name'], { home })).code).toBe(2);
    const taken = await runIris(['webhook', 'subscribe', 'taken'], { home });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('a route named "taken" is defined in config.yaml');
    const noTarget = await runIris(['webhook', 'subscribe', 'pr', '--deliver', 'forge_comment'], { home });
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('delivers a forge_comment but subscription pr.deliver_extra has no repo and pr_number');
    const chat = await runIris(['webhook', 'subscribe', 'pr', '--deliver', 'telegram'], { home });
    expect(chat.code).toBe(2);
    expect(chat.stderr).toContain('route "pr" delivers to telegram, which is not enabled (set platforms.telegram.enabled: true and its settings; docs/platforms.md)');
    expect((await runIris(['webhook', 'subscribe', 'pr', '--deliver', 'fax'], { home })).code).toBe(2);
    await expect(stat(join(home, 'webhook_subscriptions.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    const short = await runIris(['webhook', 'subscribe', 'pr', '--secret', '  given-secret  '], { home });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('route "pr" has a secret of 12 characters: use at least 16; subscribe it again without --secret to get a random one');
    await expect(stat(join(home, 'webhook_subscriptions.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    const ok = await runIris(['webhook', 'subscribe', 'pr', '--deliver', 'forge_comment', '--deliver-extra', 'repo={repository.full_name}', '--deliver-extra', 'pr_number={number}', '--secret', ' given-secret-0123456789 '], { home });
    expect(ok.code).toBe(0);
    expect(ok.stdout).not.toContain('given');
    // Stored trimmed: HTTP trims header values, and HMAC keyed with the spaces would never match.
    const saved = JSON.parse(await readFile(join(home, 'webhook_subscriptions.json'), 'utf8')) as { subscriptions: Record<string, { secret: string }> };
    expect(saved.subscriptions.pr!.secret).toBe('given-secret-0123456789');
  });

  it('a static route wins a name clash written into the file by hand', async () => {
    await configure(routes('        same:\n          secret: config-secret-0123456789abcdef\n'));
    await writeFile(join(home, 'webhook_subscriptions.json'), JSON.stringify({ version: 1, subscriptions: { same: { secret: 'sub-secret-0123456789abcdef', created_at: 'x' } } }), { mode: 0o600 });
    const gateway = await startGatewayProcess(home, modelEnv());
    running.push(gateway);
    expect((await postEvent(gateway.url, 'same', {}, { secret: 'sub-secret-0123456789abcdef' })).status).toBe(401);
    expect((await postEvent(gateway.url, 'same', {}, { secret: 'config-secret-0123456789abcdef' })).status).toBe(202);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
