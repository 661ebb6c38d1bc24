// `iris auth add | login | logout | remove` end to end: bin/iris against the fake authorization
// server (the test plays the user who approves or denies the code) and the fake model upstream.
// After a sign-in the provider counts as authenticated everywhere — `iris auth`, the dashboard's
// picker, routing — and model calls carry its token as a Bearer credential, refreshed near expiry.
// No token ever reaches stdout or stderr.
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOAuthServer, type FakeOAuthServer } from '../fakes/oauth-server.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startDashboardProcess } from '../helpers/dashboard.js';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, runIris, type RunResult } from '../helpers/iris.js';
import { parseJson } from '../helpers/documents.js';

const CLIENT_ID = 'iris-test-client-123';

let oauth: FakeOAuthServer;
let upstream: FakeUpstream;
let dir: string;
let home: string;

beforeAll(async () => {
  oauth = await startFakeOAuthServer({ clientIds: [CLIENT_ID] });
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await oauth.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.reset();
  oauth.tokenLifetimeSeconds = 3600;
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const authPath = () => join(home, 'auth.json');
const iris = (args: string[], env: Record<string, string> = {}) => runIris(args, { home, env });
const add = () => iris(['auth', 'add', 'openrouter', '--client-id', CLIENT_ID, '--issuer', oauth.url]);

/** `iris auth login` in the background; `user` plays the person at the browser once the code is out. */
function login(provider: string, user: (userCode: string) => void): Promise<RunResult> {
  const child = spawn(process.execPath, [IRIS_BIN, 'auth', 'login', provider], { env: cleanEnv({ IRIS_HOME: home }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const before = oauth.devices.length;
  void oauth.nextDevice().then((device) => {
    if (oauth.devices.length > before) user(device.userCode);
  });
  // A login that hangs is killed and fails the test: it must never read as "exit 1".
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== null) resolve({ code, stdout, stderr });
      else reject(new Error(`iris auth login ${provider} was killed by ${signal ?? 'a signal'} (after 15 s it is killed as hung)\nstdout: ${stdout}\nstderr: ${stderr}`));
    }),
  );
}

type StoredAuth = { providers: Record<string, { client_id: string; issuer?: string; oauth?: { access_token: string; refresh_token?: string; expires_at: string | null } }> };

async function stored(): Promise<StoredAuth> {
  return JSON.parse(await readFile(authPath(), 'utf8')) as StoredAuth;
}

/** Every token the fake ever issued: none may appear in any output. */
function expectNoToken(...outputs: string[]) {
  const secrets = oauth.issued.flatMap((t) => [t.accessToken, t.refreshToken ?? '']).filter(Boolean);
  expect(secrets.length).toBeGreaterThan(0);
  for (const output of outputs) for (const secret of secrets) expect(output).not.toContain(secret);
}

async function signIn(): Promise<RunResult> {
  expect((await add()).code).toBe(0);
  return login('openrouter', (code) => oauth.approve(code));
}

describe('iris auth add', () => {
  it('stores the client id and the issuer in auth.json (0600)', async () => {
    expect(await add()).toEqual({
      code: 0,
      stdout: `Stored the client id for openrouter in ${authPath()}\nNext: iris auth login openrouter\n`,
      stderr: '',
    });
    expect((await stat(authPath())).mode & 0o777).toBe(0o600);
    const file = await stored();
    expect(file.providers.openrouter).toMatchObject({ client_id: CLIENT_ID, issuer: oauth.url });
    expect(file.providers.openrouter?.oauth).toBeUndefined();
  });

  it.each([
    [['cloud-hosted', '--client-id', 'x'], 'iris: error: cloud-hosted cannot use iris auth: cloud-hosted endpoints take an API key or an identity token, never a consumer-subscription sign-in\n'],
    [['custom', '--client-id', 'x'], 'iris: error: custom cannot use iris auth: a custom endpoint has no provider sign-in: set its key with key_env, or none\n'],
    [['nope', '--client-id', 'x'], 'iris: error: unknown provider "nope"\n'],
    [['openrouter', '--client-id', 'x'], 'iris: error: openrouter has no known authorization server: pass --issuer <url>\n'],
    [['openrouter', '--client-id', 'x', '--issuer', 'ftp://a'], 'iris: error: --issuer must be an http(s) URL, not "ftp://a"\n'],
    [['openrouter', '--client-id', ' ', '--issuer', 'http://a'], 'iris: error: --client-id needs the client id registered with the provider\n'],
    [['openrouter'], "iris: error: required option '--client-id <id>' not specified (see iris auth add --help)\n"],
  ])('refuses %j with exit 2 and writes nothing', async (args, stderr) => {
    expect(await iris(['auth', 'add', ...args])).toEqual({ code: 2, stdout: '', stderr });
    await expect(stat(authPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('iris auth login', () => {
  it('shows the code, polls until approved, stores the tokens; never prints one', async () => {
    oauth.scriptPolls('pending', 'pending');
    const result = await signIn();
    const device = oauth.devices.at(-1)!;
    const file = await stored();
    const tokens = file.providers.openrouter?.oauth;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `To sign in to OpenRouter, open ${oauth.url}/device and enter the code ${device.userCode}`,
        `(or open ${oauth.url}/device?user_code=${device.userCode})`,
        'Waiting for the sign-in to be approved (the code expires in 10 min)…',
        `Signed in to openrouter: the token is stored in ${authPath()} (expires ${tokens?.expires_at})`,
        '',
      ].join('\n'),
    );
    expect(tokens?.access_token).toBe(oauth.issued.at(-1)?.accessToken);
    expect(tokens?.refresh_token).toBe(oauth.issued.at(-1)?.refreshToken);
    expect((await stat(authPath())).mode & 0o777).toBe(0o600);
    expect(oauth.tokenRequests('device_code').length).toBeGreaterThanOrEqual(3);
    expect(oauth.tokenRequests('device_code').every((r) => r.form.client_id === CLIENT_ID)).toBe(true);
    expectNoToken(result.stdout, result.stderr);
  });

  it('denied: exit 1 with a clear message, no tokens stored', async () => {
    expect((await add()).code).toBe(0);
    const result = await login('openrouter', (code) => oauth.deny(code));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('iris: error: openrouter sign-in failed: the sign-in was denied; run iris auth login openrouter to try again\n');
    expect((await stored()).providers.openrouter?.oauth).toBeUndefined();
  });

  it('expired: exit 1 with a clear message, no tokens stored', async () => {
    expect((await add()).code).toBe(0);
    oauth.scriptPolls('pending', 'expired');
    const result = await login('openrouter', () => {});
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('iris: error: openrouter sign-in failed: the code expired before the sign-in was approved; run iris auth login openrouter to try again\n');
    expect((await stored()).providers.openrouter?.oauth).toBeUndefined();
  });

  it('without auth add first: exit 1, says what to run', async () => {
    expect(await iris(['auth', 'login', 'openrouter'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: no client id for openrouter: run iris auth add openrouter --client-id <id> first\n',
    });
  });

  it('a broken auth.json: a clear error naming the file, left as it was', async () => {
    await writeFile(authPath(), '{"version":1,"providers":{"openrouter":{}}}', { mode: 0o600 });
    const result = await iris(['auth', 'login', 'openrouter']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^iris: error: ${authPath().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is invalid \\(providers\\.openrouter\\.client_id: .*\\): fix it, or remove it and run iris auth add again\\n$`));
    expect(await readFile(authPath(), 'utf8')).toBe('{"version":1,"providers":{"openrouter":{}}}');
  });
});

describe('a signed-in provider', () => {
  const workspaceConfig = async () => {
    const workspace = join(dir, 'work');
    await mkdir(workspace);
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openrouter\n  default: main-m\nagent:\n  workspace: ${workspace}\n`, { mode: 0o600 });
  };
  const upstreamEnv = () => ({ OPENROUTER_BASE_URL: `${upstream.url}/v1` });

  it('iris auth shows the oauth mode and when the token expires, never the token', async () => {
    await workspaceConfig();
    expect((await signIn()).code).toBe(0);
    const expires = (await stored()).providers.openrouter?.oauth?.expires_at;
    const text = await iris(['auth'], upstreamEnv());
    expect(text).toEqual({
      code: 0,
      stdout: [
        'openrouter (OpenRouter)',
        '  Used by: main',
        `  Endpoint: ${upstream.url}/v1`,
        '  Auth mode: oauth',
        `  Token: stored (expires ${expires}, refreshed automatically)`,
        '  Status: signed in (iris auth login; live probe skipped)',
        '',
      ].join('\n'),
      stderr: '',
    });
    const json = await iris(['auth', '--json'], upstreamEnv());
    expect(parseJson(json.stdout)?.providers?.[0]).toMatchObject({ auth_mode: 'oauth', token: { stored: true, expires_at: expires, refreshable: true }, configured: true });
    const status = await iris(['status', '--json'], upstreamEnv());
    expect(status.code).toBe(0);
    expect(parseJson(status.stdout)?.providers?.[0]).toMatchObject({ provider: 'openrouter', credential: 'oauth_token', usable: true });
    const doctor = await iris(['doctor', '--offline'], upstreamEnv());
    expect(doctor.stdout).toContain('openrouter credential: OAuth sign-in in auth.json');
    expectNoToken(text.stdout, json.stdout, status.stdout, status.stderr, doctor.stdout, doctor.stderr);
  });

  it('iris model set warns about a missing credential before login, not after', async () => {
    const before = await iris(['model', 'set', 'openrouter', 'openai/gpt-5']);
    expect(before.stderr).toContain('OPENROUTER_API_KEY');
    await signIn();
    const after = await iris(['model', 'set', 'openrouter', 'openai/gpt-5-mini']);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
  });

  it('appears in the dashboard picker after login, not before', async () => {
    expect((await add()).code).toBe(0);
    const options = async () => {
      const dashboard = await startDashboardProcess(home);
      try {
        const res = await fetch(`${dashboard.url}/api/model/options`, { headers: { 'x-service-session-token': dashboard.token } });
        expect(res.status).toBe(200);
        return { body: (await res.json()) as { providers: Array<{ slug: string }>; unauthenticated: Array<{ slug: string }> }, output: dashboard.output() };
      } finally {
        await dashboard.stop();
      }
    };
    const before = await options();
    expect(before.body.providers.map((p) => p.slug)).not.toContain('openrouter');
    expect(before.body.unauthenticated.map((p) => p.slug)).toContain('openrouter');
    expect((await login('openrouter', (code) => oauth.approve(code))).code).toBe(0);
    const after = await options();
    expect(after.body.providers.map((p) => p.slug)).toContain('openrouter');
    expectNoToken(JSON.stringify(after.body), after.output);
  });

  it('model calls carry the token as a Bearer credential', async () => {
    await workspaceConfig();
    expect((await signIn()).code).toBe(0);
    const token = (await stored()).providers.openrouter?.oauth?.access_token;
    upstream.script('main-m', { kind: 'text', deltas: ['hello from upstream'] });
    const result = await iris(['chat', '-q', 'hi'], upstreamEnv());
    expect(result).toMatchObject({ code: 0, stdout: 'hello from upstream\n' });
    expect(upstream.requests.length).toBeGreaterThan(0);
    for (const request of upstream.requests) expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expectNoToken(result.stdout, result.stderr);
  });

  it('an API key still wins over the sign-in', async () => {
    await workspaceConfig();
    expect((await signIn()).code).toBe(0);
    await iris(['chat', '-q', 'hi'], { ...upstreamEnv(), OPENROUTER_API_KEY: 'sk-or-v1-key-wins-0123456789' });
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer sk-or-v1-key-wins-0123456789');
  });

  it('a token within two minutes of expiry is refreshed before the call, and the new one stored', async () => {
    await workspaceConfig();
    oauth.tokenLifetimeSeconds = 60;
    expect((await signIn()).code).toBe(0);
    const first = await stored();
    const oldToken = first.providers.openrouter?.oauth?.access_token;
    oauth.tokenLifetimeSeconds = 3600;
    const result = await iris(['chat', '-q', 'hi'], upstreamEnv());
    expect(result.code).toBe(0);
    const refreshed = (await stored()).providers.openrouter?.oauth;
    expect(refreshed?.access_token).not.toBe(oldToken);
    expect(refreshed?.access_token).toBe(oauth.issued.at(-1)?.accessToken);
    expect(oauth.tokenRequests('refresh_token').at(-1)?.form).toEqual({ grant_type: 'refresh_token', refresh_token: first.providers.openrouter?.oauth?.refresh_token, client_id: CLIENT_ID });
    for (const request of upstream.requests) expect(request.headers.authorization).toBe(`Bearer ${refreshed?.access_token}`);
    expectNoToken(result.stdout, result.stderr);
  });

  it('a refused refresh fails the call with a clear message to sign in again', async () => {
    await workspaceConfig();
    oauth.tokenLifetimeSeconds = 60;
    expect((await signIn()).code).toBe(0);
    oauth.revokeRefreshTokens();
    const result = await iris(['chat', '-q', 'hi'], upstreamEnv());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('openrouter: the OAuth token could not be refreshed (invalid_grant: the refresh token is invalid or revoked): run iris auth login openrouter again');
    expect(upstream.requests).toEqual([]);
    expectNoToken(result.stdout, result.stderr);
  });

  it('logout removes the tokens and keeps the client id; remove drops the entry', async () => {
    expect((await signIn()).code).toBe(0);
    expect(await iris(['auth', 'logout', 'openrouter'])).toEqual({
      code: 0,
      stdout: `Signed out of openrouter: the tokens are removed from ${authPath()} (the client id is kept)\n`,
      stderr: '',
    });
    expect((await stored()).providers.openrouter).toMatchObject({ client_id: CLIENT_ID, issuer: oauth.url });
    expect((await stored()).providers.openrouter?.oauth).toBeUndefined();
    expect((await iris(['auth', 'logout', 'openrouter'])).stdout).toBe('openrouter has no stored sign-in; nothing to remove\n');
    expect(await iris(['auth', 'remove', 'openrouter'])).toEqual({
      code: 0,
      stdout: `Removed openrouter from ${authPath()} (its client id and any tokens)\n`,
      stderr: '',
    });
    expect((await stored()).providers).toEqual({});
    expect(await iris(['auth', 'remove', 'openrouter'])).toEqual({ code: 1, stdout: '', stderr: `iris: error: openrouter has no entry in ${authPath()}\n` });
    expect((await stat(authPath())).mode & 0o777).toBe(0o600);
  });
});
