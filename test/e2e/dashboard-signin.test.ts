// Dashboard sign-in over real HTTP against `bin/iris dashboard` as a subprocess (DECISIONS §
// Dashboard sign-in and roles): a non-loopback address refuses to start without a way to sign in;
// before sign-in nothing carries the token and every /api call is 401 whatever token is sent;
// failed sign-ins are limited per address; the trusted proxy's header counts only from the proxy;
// and audit.log has a line for each sign-in and write, with no secret in it. The second client
// address is 127.0.0.2 (the loopback range), bound as the request's local address.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { send as sendRequest, type HttpAnswer } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris, runIrisWithInput } from '../helpers/iris.js';

const PASSWORD = 'canary-pass-6f1d2c9a8b';
const KEY = 'sk-or-v1-canarykey0123456789';
const CONFIG = `# team dashboard
model:
  provider: openrouter
  default: anthropic/claude-sonnet-4.5
`;
const API_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['GET', '/api/model/options'],
  ['GET', '/api/model/auxiliary'],
  ['POST', '/api/model/set'],
  ['GET', '/api/usage'],
  ['GET', '/api/profiles'],
  ['POST', '/api/profile/describe'],
];

let dir: string;
let home: string;
let dash: DashboardProcess | undefined;

beforeEach(async () => {
  dir = await makeTempDir('iris-signin-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, '.env'), `OPENROUTER_API_KEY=${KEY}\n`, { mode: 0o600 });
});
afterEach(async () => {
  await dash?.stop();
  dash = undefined;
  await removeDir(dir);
});

/** One request with full control of the headers and the client's own address (127.0.0.1 unless told). */
function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {}): Promise<HttpAnswer> {
  const url = new URL(dash!.url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return sendRequest(`http://127.0.0.1:${url.port}`, {
    path,
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    localAddress: options.from ?? '127.0.0.1',
    headers: { host: `127.0.0.1:${url.port}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(body === undefined ? {} : { body }),
  });
}

async function setPassword(): Promise<void> {
  const set = await runIrisWithInput(['dashboard', 'password', '--stdin'], `${PASSWORD}\n`, { home });
  expect(set.stderr).toBe('');
  expect(set.code).toBe(0);
}

async function signIn(from = '127.0.0.1'): Promise<{ cookie: string; token: string }> {
  const answer = await send('/api/login', { body: { password: PASSWORD }, from });
  expect(answer.status).toBe(204);
  const setCookie = String(answer.headers['set-cookie']);
  expect(setCookie).toMatch(/^iris_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
  const cookie = setCookie.split(';', 1)[0]!;
  const page = await send('/', { headers: { cookie }, from });
  expect(page.status).toBe(200);
  const token = JSON.parse(/window\.__DASHBOARD_AUTH_TOKEN__=("[^"]+")/.exec(page.text)![1]!) as string;
  expect(page.text).toContain('window.__DASHBOARD_SIGNED_IN__=true');
  return { cookie, token };
}

type AuditRow = { time: string; actor: string; from: string; action: string; target: string; ok: boolean; reason?: string };
async function auditRows(): Promise<AuditRow[]> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as AuditRow);
}

describe('a non-loopback dashboard', () => {
  it('refuses to start with neither a password nor a trusted proxy (exit 2 naming both), --allow-remote or not', async () => {
    for (const extra of [[], ['--allow-remote']]) {
      const run = await runIris(['dashboard', '--host', '0.0.0.0', '--port', '0', '--no-open', ...extra], { home });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('iris dashboard password');
      expect(run.stderr).toContain('dashboard.trusted_proxy');
      expect(run.stdout).not.toContain('dashboard: http');
    }
  });

  it('stores only a scrypt hash of the password, refuses a short one, and clears it', async () => {
    const short = await runIrisWithInput(['dashboard', 'password', '--stdin'], 'short\n', { home });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 10 characters');
    const noTerminal = await runIris(['dashboard', 'password'], { home });
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('--stdin');
    await setPassword();
    const env = await readFile(join(home, '.env'), 'utf8');
    expect(env).not.toContain(PASSWORD);
    expect(env).toMatch(/^IRIS_DASHBOARD_PASSWORD_HASH=.?scrypt\$15\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+.?$/m);
    expect(env).toContain(`OPENROUTER_API_KEY=${KEY}`);
    const cleared = await runIris(['dashboard', 'password', '--clear'], { home });
    expect(cleared.code).toBe(0);
    expect(await readFile(join(home, '.env'), 'utf8')).toBe(`OPENROUTER_API_KEY=${KEY}\n`);
  });

  it('signs in with the password: nothing before it, the token and the API after it, limits and audit', async () => {
    await setPassword();
    dash = await startDashboardProcess(home, {}, ['--host', '0.0.0.0'], { readToken: false });
    await expect.poll(() => dash!.output(), { timeout: 5_000 }).toContain('sign-in: the password; every sign-in and change is written to');

    // iris doctor sees where it listens and how it signs people in.
    const doctor = await runIris(['doctor', '--offline', '--json'], { home });
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; finding: string }> }).checks;
    expect(checks.find((check) => check.id === 'dashboard')).toEqual({
      id: 'dashboard', name: 'dashboard', status: 'ok', finding: `running on 0.0.0.0:${dash.port} (other machines can reach it); sign-in: the password`,
    });

    // Before sign-in: / goes to /login, no page carries the token, the API answers nothing.
    const root = await send('/');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/login');
    expect(root.text).toBe('');
    const login = await send('/login');
    expect(login.status).toBe(200);
    expect(login.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(login.text).toContain('type="password"');
    expect(login.text).not.toContain('__DASHBOARD_AUTH_TOKEN__');
    expect(login.headers['set-cookie']).toBeUndefined();

    // The token of a signed-in page, then every API call without a cookie: 401, even with it.
    const { cookie, token } = await signIn('127.0.0.2');
    for (const [method, path] of API_PATHS) {
      const refused = await send(path, { method, headers: { 'x-service-session-token': token, 'content-type': 'application/json' } });
      expect([path, refused.status, refused.json]).toEqual([path, 401, { error: 'Sign in first' }]);
      const forged = await send(path, { method, headers: { 'x-service-session-token': token, cookie: 'iris_session=forged', 'content-type': 'application/json' } });
      expect([path, forged.status]).toEqual([path, 401]);
    }
    // The cookie alone is not enough either: the token is the CSRF guard.
    const cookieOnly = await send('/api/model/auxiliary', { headers: { cookie } });
    expect([cookieOnly.status, cookieOnly.json]).toEqual([401, { error: 'Unauthorized' }]);
    // A foreign Host is still 400, signed in or not.
    const foreign = await send('/api/model/auxiliary', { headers: { cookie, 'x-service-session-token': token, host: 'evil.example:80' } });
    expect([foreign.status, foreign.json]).toEqual([400, { error: 'Invalid Host header' }]);

    // Signed in: a change is saved.
    const set = await send('/api/model/set', { headers: { cookie, 'x-service-session-token': token }, body: { scope: 'auxiliary', task: 'vision', provider: 'openrouter', model: 'openai/gpt-4.1' } });
    expect(set.status).toBe(200);
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { auxiliary: { vision: { provider: string; model: string } } };
    expect(config.auxiliary.vision).toMatchObject({ provider: 'openrouter', model: 'openai/gpt-4.1' });

    // Five wrong passwords from one address, then 429 with Retry-After, even for the right one.
    for (let i = 0; i < 5; i++) {
      const wrong = await send('/api/login', { body: { password: `${PASSWORD}x` } });
      expect([wrong.status, wrong.json, wrong.headers['set-cookie']]).toEqual([401, { error: 'Wrong password' }, undefined]);
    }
    const limited = await send('/api/login', { body: { password: PASSWORD } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address is not locked out.
    expect((await send('/api/login', { body: { password: PASSWORD }, from: '127.0.0.2' })).status).toBe(204);
    // A bad body is a clear 400/415, not a crash.
    expect((await send('/api/login', { body: { pass: 1 }, from: '127.0.0.3' })).status).toBe(400);
    expect((await send('/api/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, from: '127.0.0.3' })).status).toBe(415);

    // Sign-out ends the session: the same cookie is refused afterwards.
    const out = await send('/api/logout', { method: 'POST', headers: { cookie, 'x-service-session-token': token }, from: '127.0.0.2' });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    const after = await send('/api/model/auxiliary', { headers: { cookie, 'x-service-session-token': token } });
    expect([after.status, after.json]).toEqual([401, { error: 'Sign in first' }]);
    expect((await send('/', { headers: { cookie } })).status).toBe(302);

    expect(await dash.stop()).toBe(0);
    await expect(readFile(join(home, 'dashboard.address'), 'utf8')).rejects.toThrow('ENOENT');

    const rows = await auditRows();
    expect(rows.map((row) => [row.actor, row.from, row.action, row.ok, row.reason ?? ''])).toEqual([
      ['password', '127.0.0.2', 'sign_in', true, ''],
      ['password', '127.0.0.1', 'model.set', true, ''],
      ...Array.from({ length: 5 }, () => ['anonymous', '127.0.0.1', 'sign_in', false, 'wrong password']),
      ['anonymous', '127.0.0.1', 'sign_in', false, 'too many failed sign-ins'],
      ['password', '127.0.0.2', 'sign_in', true, ''],
      ['anonymous', '127.0.0.3', 'sign_in', false, 'malformed request'],
      ['anonymous', '127.0.0.3', 'sign_in', false, 'malformed request'],
      ['password', '127.0.0.2', 'sign_out', true, ''],
    ]);
    expect(rows[1]!.target).toBe('auxiliary vision openrouter/openai/gpt-4.1');
    const audit = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
    for (const secret of [PASSWORD, KEY, token, cookie.split('=')[1]!]) expect(audit).not.toContain(secret);
  });

  it('takes the trusted proxy\'s header from the proxy\'s address only', async () => {
    await writeFile(join(home, 'config.yaml'), `${CONFIG}dashboard:\n  trusted_proxy:\n    header: X-Forwarded-User\n    from: [127.0.0.1/32]\n`, { mode: 0o600 });
    dash = await startDashboardProcess(home, {}, ['--host', '0.0.0.0'], { readToken: false });
    const viaProxy = { 'x-forwarded-user': 'ada' };
    const page = await send('/', { headers: viaProxy });
    expect(page.status).toBe(200);
    const token = JSON.parse(/window\.__DASHBOARD_AUTH_TOKEN__=("[^"]+")/.exec(page.text)![1]!) as string;
    const read = await send('/api/model/auxiliary', { headers: { ...viaProxy, 'x-service-session-token': token } });
    expect(read.status).toBe(200);
    // The API still needs the token behind the proxy.
    expect((await send('/api/model/auxiliary', { headers: viaProxy })).status).toBe(401);
    const set = await send('/api/model/set', { headers: { ...viaProxy, 'x-service-session-token': token }, body: { scope: 'main', provider: 'openrouter', model: 'openai/gpt-4.1' } });
    expect(set.status).toBe(200);

    // From another address the header is ignored: no page, no API, and no password to sign in with.
    const spoofed = await send('/', { headers: viaProxy, from: '127.0.0.2' });
    expect([spoofed.status, spoofed.headers.location]).toEqual([302, '/login']);
    const spoofedApi = await send('/api/model/auxiliary', { headers: { ...viaProxy, 'x-service-session-token': token }, from: '127.0.0.2' });
    expect([spoofedApi.status, spoofedApi.json]).toEqual([401, { error: 'Sign in first' }]);
    const noPassword = await send('/api/login', { body: { password: 'anything at all' }, from: '127.0.0.2' });
    expect([noPassword.status, noPassword.json]).toEqual([403, { error: 'This dashboard has no password: sign in through its proxy' }]);
    expect((await send('/login', { from: '127.0.0.2' })).text).toContain('Sign in through the proxy');

    const rows = await auditRows();
    expect(rows.map((row) => [row.actor, row.action, row.ok])).toEqual([
      ['proxy:ada', 'model.set', true],
      ['anonymous', 'sign_in', false],
    ]);
  });

  it('refuses a trusted proxy setting that is not addresses (exit 2)', async () => {
    await writeFile(join(home, 'config.yaml'), `${CONFIG}dashboard:\n  trusted_proxy:\n    from: [proxy.lan]\n`, { mode: 0o600 });
    const run = await runIris(['dashboard', '--host', '0.0.0.0', '--port', '0', '--no-open'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('dashboard.trusted_proxy.from: "proxy.lan" is not an IP address or CIDR range');
  });
});

describe('a loopback dashboard', () => {
  it('with a password signs in too', async () => {
    await setPassword();
    dash = await startDashboardProcess(home, {}, [], { readToken: false });
    const root = await send('/');
    expect([root.status, root.headers.location]).toEqual([302, '/login']);
    const { cookie, token } = await signIn();
    expect((await send('/api/model/auxiliary', { headers: { cookie, 'x-service-session-token': token } })).status).toBe(200);
  });

  it('without a password works as before, and has no sign-in endpoint', async () => {
    dash = await startDashboardProcess(home);
    expect((await send('/api/model/auxiliary', { headers: { 'x-service-session-token': dash.token } })).status).toBe(200);
    expect((await send('/api/login', { body: { password: PASSWORD } })).status).toBe(404);
    const login = await send('/login');
    expect([login.status, login.headers.location]).toEqual([302, '/']);
  });
});
