// `iris setup` without a terminal: every answer by flag, against the fake upstream (each probe
// outcome of the cloud-hosted sequence) and the fake token endpoint (the identity preflight).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl, startTokenEndpoint, APP_PLATFORM_PATH, type FakeTokenEndpoint } from '../fakes/token-endpoint.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, runIris, type RunResult } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  fake.setModels([]);
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const HOSTED_KEY = 'hosted-key-0123456789abcdef';

function setup(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [IRIS_BIN, 'setup', ...args], { env: cleanEnv({ IRIS_HOME: home, ...options.env }), timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(options.stdin ?? '');
  });
}

const config = async () => parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown>; platforms?: { webhook?: { enabled?: boolean; extra?: Record<string, unknown> } } };
const envFile = () => readFile(join(home, '.env'), 'utf8').catch(() => '');

describe('iris setup (flags)', () => {
  it('fresh install: replaces model: "" with a mapping, the key goes to .env (0600), never config.yaml', async () => {
    const result = await setup(['--provider', 'openai', '--model', 'gpt-5', '--api-key-stdin'], { stdin: 'sk-test-0123456789abcdef\n', env: { OPENAI_BASE_URL: `${fake.url}/v1` } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('main model: openai · gpt-5');
    expect((await config()).model).toEqual({ provider: 'openai', default: 'gpt-5', base_url: '', context_length: 400000 });
    expect(await envFile()).toBe('OPENAI_API_KEY=sk-test-0123456789abcdef\n');
    expect((await stat(join(home, '.env'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).not.toContain('sk-test');
    expect(result.stdout).not.toContain('sk-test');
  });

  it('run again: the current values are the defaults', async () => {
    await setup(['--provider', 'openai', '--model', 'gpt-5', '--api-key-stdin'], { stdin: 'sk-test-0123456789abcdef', env: { OPENAI_BASE_URL: `${fake.url}/v1` } });
    const again = await setup(['--yes']);
    expect(again.code).toBe(0);
    expect((await config()).model).toEqual({ provider: 'openai', default: 'gpt-5', base_url: '', context_length: 400000 });
  });

  it('a missing answer without a terminal names its flag (exit 2) and writes nothing', async () => {
    const result = await setup(['--provider', 'openai', '--model', 'gpt-5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('OPENAI_API_KEY (stored in $IRIS_HOME/.env, never in config.yaml): pass --api-key-stdin');
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('switching provider clears base_url and drops the old api_mode', async () => {
    await setup(['--provider', 'cloud-hosted', '--base-url', `${fake.url}/anthropic`, '--model', 'claude-dep', '--yes'], { env: { CLOUD_HOSTED_API_KEY: HOSTED_KEY } });
    expect((await config()).model).toMatchObject({ provider: 'cloud-hosted', api_mode: 'anthropic_messages', base_url: `${fake.url}/anthropic` });
    const result = await setup(['--provider', 'openrouter', '--model', 'anthropic/claude-sonnet-4.5', '--yes'], { env: { OPENROUTER_API_KEY: 'sk-or-0123456789abcdef' } });
    expect(result.code).toBe(0);
    expect((await config()).model).toEqual({ provider: 'openrouter', default: 'anthropic/claude-sonnet-4.5', base_url: '', context_length: 200000 });
  });

  it('enables the webhook platform with a port and a generated global secret', async () => {
    const result = await setup(['--provider', 'openai', '--model', 'gpt-5', '--webhook', '--webhook-port', '8700', '--yes'], { env: { OPENAI_API_KEY: 'sk-0123456789abcdef' } });
    expect(result.code).toBe(0);
    const webhook = (await config()).platforms!.webhook!;
    expect(webhook.enabled).toBe(true);
    expect(webhook.extra).toMatchObject({ port: 8700 });
    expect(webhook.extra!.secret).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cloud-hosted: the probe sequence', () => {
  const env = { CLOUD_HOSTED_API_KEY: HOSTED_KEY };

  it('1: a /anthropic path is the messages route, with no request', async () => {
    const result = await setup(['--provider', 'cloud-hosted', '--base-url', `${fake.url}/anthropic`, '--model', 'claude-dep'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('probe path: the path ends in /anthropic: the messages route');
    expect(fake.requests).toEqual([]);
    expect((await config()).model).toMatchObject({ api_mode: 'anthropic_messages', default: 'claude-dep' });
  });

  it('2: an OpenAI-shaped /models list → chat_completions, and the first listed deployment by default', async () => {
    fake.setModels(['gpt-4o-prod', 'gpt-4o-mini-dev']);
    const result = await setup(['--provider', 'cloud-hosted', '--base-url', `${fake.url}/openai/v1`, '--yes'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`probe models ${fake.url}/openai/v1/models: 2 models`);
    expect((await config()).model).toEqual({ provider: 'cloud-hosted', default: 'gpt-4o-prod', base_url: `${fake.url}/openai/v1`, api_mode: 'chat_completions', context_length: 128000 });
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/openai/v1/models']]);
    expect(JSON.stringify(fake.requests[0]!.headers)).toContain(HOSTED_KEY);
  });

  it('3: no /models but a messages-shaped answer → anthropic_messages', async () => {
    const server: Server = createServer((req, res) => {
      const body = req.method === 'POST' && req.url === '/v1/messages' ? { type: 'error', error: { type: 'not_found_error', message: 'model' } } : { error: 'nope' };
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await setup(['--provider', 'cloud-hosted', '--base-url', base, '--model', 'claude-dep'], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('probe messages');
      expect((await config()).model).toMatchObject({ api_mode: 'anthropic_messages', base_url: base });
    } finally {
      server.close();
    }
  });

  it('4: every probe refused → says auto-detection is incomplete and asks for the api mode by hand', async () => {
    const dead = await closedPortUrl();
    const result = await setup(['--provider', 'cloud-hosted', '--base-url', dead, '--model', 'my-deploy'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('auto-detection is incomplete: both probes were rejected; continue with manual entry of the api mode and the deployment name');
    expect(result.stderr).toContain('pass --api-mode');
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Manual entry: names are not checked against any list.
    const manual = await setup(['--provider', 'cloud-hosted', '--base-url', dead, '--api-mode', 'codex_responses', '--model', 'my-deploy'], { env });
    expect(manual.code).toBe(0);
    expect((await config()).model).toMatchObject({ api_mode: 'codex_responses', default: 'my-deploy' });
  });
});

describe('cloud-hosted identity mode: the 10 s preflight', () => {
  let tokens: FakeTokenEndpoint;
  beforeAll(async () => {
    tokens = await startTokenEndpoint({ identityHeader: 'the-header', userAssignedClientIds: ['uami-client-1'] });
  });
  afterAll(() => tokens.close());

  it('a token from the managed identity: saved with auth_mode identity_token; the client id goes to .env', async () => {
    const result = await setup(['--provider', 'cloud-hosted', '--auth-mode', 'identity_token', '--base-url', `${fake.url}/anthropic`, '--model', 'claude-dep', '--client-id', 'uami-client-1', '--tenant-id', ''], {
      env: { IDENTITY_ENDPOINT: `${tokens.httpUrl}${APP_PLATFORM_PATH}`, IDENTITY_HEADER: 'the-header' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/identity token: ok \(from \w+/);
    expect((await config()).model).toMatchObject({ provider: 'cloud-hosted', auth_mode: 'identity_token', api_mode: 'anthropic_messages' });
    expect(await envFile()).toBe('CLOUD_CLIENT_ID=uami-client-1\n');
    expect(tokens.tokenRequests().length).toBeGreaterThan(0);
  });

  it('a failed preflight: nothing written without --yes; saved anyway with it', async () => {
    const env = { IDENTITY_ENDPOINT: `${await closedPortUrl()}${APP_PLATFORM_PATH}`, IDENTITY_HEADER: 'h', PATH: '/nonexistent' };
    const args = ['--provider', 'cloud-hosted', '--auth-mode', 'identity_token', '--base-url', `${fake.url}/anthropic`, '--model', 'claude-dep', '--client-id', '', '--tenant-id', ''];
    const refused = await setup(args, { env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('identity token preflight failed');
    expect(refused.stderr).toContain('pass --yes');
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
    const saved = await setup([...args, '--yes'], { env });
    expect(saved.code).toBe(0);
    expect((await config()).model).toMatchObject({ auth_mode: 'identity_token' });
  });
});

describe('the status afterwards', () => {
  it('iris status shows the configured main model', async () => {
    await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-0123456789abcdef\n', { mode: 0o600 });
    await setup(['--provider', 'openai', '--model', 'gpt-4.1', '--yes']);
    expect(JSON.parse((await runIris(['status', '--json'], { home })).stdout)).toMatchObject({ main: { provider: 'openai', model: 'gpt-4.1' } });
  });
});

describe('iris setup --api-key-stdin checks the key', () => {
  const KEY = 'sk-test-0123456789abcdef';

  it('says what GET /models found with it, and sends the key', async () => {
    fake.setModels(['gpt-5', 'gpt-5-mini']);
    const result = await setup(['--provider', 'openai', '--model', 'gpt-5', '--api-key-stdin'], { stdin: `${KEY}\n`, env: { OPENAI_BASE_URL: `${fake.url}/v1` } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`key check: ok, 2 models listed at ${fake.url}/v1/models\n`);
    expect(fake.requests.map((r) => [r.path, r.headers.authorization])).toEqual([['/v1/models', `Bearer ${KEY}`]]);
    expect(result.stdout).not.toContain(KEY);
  });

  it('a failed check is said with the fix; the key is stored anyway (exit 0); --json has key_check', async () => {
    const url = await closedPortUrl();
    const result = await setup(['--provider', 'openai', '--model', 'gpt-5', '--api-key-stdin', '--json'], { stdin: KEY, env: { OPENAI_BASE_URL: `${url}/v1` } });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { key_check: { ok: boolean; detail: string } };
    expect(summary.key_check.ok).toBe(false);
    expect(summary.key_check.detail).toContain(`${url}/v1/models`);
    expect(await envFile()).toBe(`OPENAI_API_KEY=${KEY}\n`);
  });
});
