// The dashboard's REST API over real HTTP against `bin/iris dashboard` as a subprocess: the
// session token, the Host check, every 400/422 case, and each assignment form read back from
// config.yaml (comments kept).
import { createServer } from 'node:net';
import { request } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { anyString } from '../helpers/documents.js';
import { jsonConventionProblems } from '../helpers/json-convention.js';

let dir: string;
let home: string;
let dash: DashboardProcess;
const KEY = 'sk-or-v1-0123456789abcdef';

const CONFIG = `# my settings
model:
  provider: openrouter
  default: anthropic/claude-sonnet-4.5   # the main one
auxiliary:
  vision:
    provider: anthropic
    model: claude-haiku-4-5
    timeout: 99
`;

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  dash = await startDashboardProcess(home, { OPENROUTER_API_KEY: KEY, ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdef' });
});
afterEach(async () => {
  await dash?.stop();
  await removeDir(dir);
});

type Answer = { status: number; json: unknown; text: string; headers: Headers };

async function api(path: string, init: { method?: string; body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token !== null) headers['x-service-session-token'] = init.token ?? dash.token;
  if (init.body !== undefined || init.raw !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${dash.url}${path}`, {
    method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : init.raw !== undefined ? { body: init.raw } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

const config = async () => parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown>; auxiliary: Record<string, Record<string, unknown>> };

describe('authentication and the Host check', () => {
  it('401 without the token or with a wrong one; the Bearer form works too', async () => {
    expect(await api('/api/model/auxiliary', { token: null })).toMatchObject({ status: 401, json: { error: 'Unauthorized' } });
    expect(await api('/api/model/auxiliary', { token: 'wrong' })).toMatchObject({ status: 401, json: { error: 'Unauthorized' } });
    expect(await api('/api/model/set', { token: null, body: { scope: 'main', provider: 'openai', model: 'gpt-5' } })).toMatchObject({ status: 401 });
    expect((await api('/api/model/auxiliary', { token: null, headers: { authorization: `Bearer ${dash.token}` } })).status).toBe(200);
    expect(dash.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a new token on every start', async () => {
    const first = dash.token;
    await dash.stop();
    dash = await startDashboardProcess(home, { OPENROUTER_API_KEY: KEY });
    expect(dash.token).not.toBe(first);
    expect((await api('/api/model/auxiliary', { token: first })).status).toBe(401);
  });

  it('refuses a Host that is not this server (DNS rebinding), and serves the page with a CSP nonce for the token script', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request(`${dash.url}/api/model/options`, { headers: { host: 'evil.example', 'x-service-session-token': dash.token } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(400);
    const page = await fetch(`${dash.url}/`);
    const csp = page.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(await page.text()).toContain(`<script nonce="${nonce}">window.__DASHBOARD_AUTH_TOKEN__=`);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('reads', () => {
  it('options: the main model and only the authenticated providers with curated models; no secret', async () => {
    const answer = await api('/api/model/options');
    expect(answer.status).toBe(200);
    const body = answer.json as { provider: string; model: string; providers: Array<{ slug: string; models: string[]; free_text: boolean }>; unauthenticated: Array<{ slug: string; key_env?: string }> };
    expect([body.provider, body.model]).toEqual(['openrouter', 'anthropic/claude-sonnet-4.5']);
    expect(body.providers.map((p) => p.slug)).toEqual(['openrouter', 'anthropic']);
    expect(body.providers[0]!.models.length).toBeGreaterThan(0);
    expect(body.providers.every((p) => p.free_text === false)).toBe(true);
    expect(body.unauthenticated).toContainEqual({ slug: 'openai', name: 'OpenAI', key_env: 'OPENAI_API_KEY' });
    expect(answer.text).not.toContain(KEY);
  });

  it('auxiliary: the main model and all 11 tasks in display order', async () => {
    const answer = await api('/api/model/auxiliary');
    expect(answer.json).toMatchObject({ main: { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' } });
    const tasks = (answer.json as { tasks: Array<{ task: string; provider: string; model: string; base_url: string }> }).tasks;
    expect(tasks.map((t) => t.task)).toEqual([
      'vision', 'web_extract', 'compression', 'skills_hub', 'approval', 'mcp', 'title_generation', 'triage_specifier', 'kanban_decomposer', 'profile_describer', 'curator',
    ]);
    expect(tasks[0]).toEqual({ task: 'vision', name: 'Vision', provider: 'anthropic', model: 'claude-haiku-4-5', base_url: '' });
    expect(tasks[1]).toMatchObject({ provider: 'auto', model: '' });
  });

  it('usage per model with the tasks it served; since is checked', async () => {
    const store = await openSqliteStore(join(home, 'state.db'));
    const now = Date.now();
    for (const [task, at] of [['main', now], ['title_generation', now], ['main', now - 10 * 86_400_000]] as const) {
      await store.recordUsage({ sessionId: null, at, provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', task, inputTokens: 1000, outputTokens: 100, cachedTokens: 10, cacheWriteTokens: 0, source: 'cli', costUsd: 0.01 });
    }
    await store.close();
    const all = (await api('/api/usage')).json as { since: null; models: Array<Record<string, unknown>> };
    expect(all.since).toBeNull();
    expect(all.models).toEqual([
      expect.objectContaining({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', calls: 3, input_tokens: 3000, output_tokens: 300, cached_tokens: 30, unpriced_calls: 0, tasks: ['main', 'title_generation'] }),
    ]);
    const week = (await api('/api/usage?since=7d')).json as { since: string; models: Array<{ calls: number }> };
    expect(week.models[0]!.calls).toBe(2);
    expect(week.since).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(week.since)).toBeGreaterThan(now - 8 * 86_400_000);
    expect(await api('/api/usage?since=soon')).toMatchObject({ status: 400 });
  });

  it('404 for an unknown API path, 405 with Allow for a wrong method', async () => {
    expect(await api('/api/nope')).toMatchObject({ status: 404, json: { error: 'Not found' } });
    const wrong = await api('/api/model/options', { method: 'DELETE' });
    expect(wrong).toMatchObject({ status: 405 });
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('POST /api/model/set', () => {
  it('main: writes provider and default, keeps comments, answers the aux slots pinned elsewhere', async () => {
    const answer = await api('/api/model/set', { body: { scope: 'main', provider: 'openai', model: 'gpt-5' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ ok: true, scope: 'main', provider: 'openai', model: 'gpt-5', stale_aux: [{ task: 'vision', provider: 'anthropic', model: 'claude-haiku-4-5' }] });
    const text = await readFile(join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# the main one');
    expect((await config()).model).toMatchObject({ provider: 'openai', default: 'gpt-5', base_url: '' });
    // The CLI sees the same thing.
    expect(JSON.parse((await runIris(['status', '--json'], { home })).stdout)).toMatchObject({ main: { provider: 'openai', model: 'gpt-5' } });
  });

  it('auxiliary: one task, then all 11, then __reset__ (timeouts kept)', async () => {
    expect(await api('/api/model/set', { body: { scope: 'auxiliary', task: 'compression', provider: 'openrouter', model: 'google/gemini-2.5-flash' } })).toMatchObject({
      status: 200,
      json: { ok: true, scope: 'auxiliary', tasks: ['compression'], provider: 'openrouter', model: 'google/gemini-2.5-flash' },
    });
    expect((await config()).auxiliary.compression).toMatchObject({ provider: 'openrouter', model: 'google/gemini-2.5-flash' });

    const all = await api('/api/model/set', { body: { scope: 'auxiliary', task: '', provider: 'anthropic', model: 'claude-haiku-4-5' } });
    expect((all.json as { tasks: string[] }).tasks).toHaveLength(11);
    const aux = (await config()).auxiliary;
    expect(Object.values(aux).every((slot) => slot.provider === 'anthropic' && slot.model === 'claude-haiku-4-5')).toBe(true);
    expect(Object.keys(aux)).toHaveLength(11);

    expect(await api('/api/model/set', { body: { scope: 'auxiliary', task: '__reset__', provider: '', model: '' } })).toMatchObject({
      status: 200,
      json: { ok: true, scope: 'auxiliary', reset: true },
    });
    const reset = (await config()).auxiliary;
    expect(Object.values(reset).every((slot) => slot.provider === 'auto' && slot.model === '')).toBe(true);
    expect(reset.vision!.timeout).toBe(99);
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toContain('# my settings');
  });

  const bad400: Array<[string, unknown, string]> = [
    ['a scope other than main/auxiliary', { scope: 'everything', provider: 'openai', model: 'gpt-5' }, 'scope must be main or auxiliary'],
    ['main without a model', { scope: 'main', provider: 'openai', model: '' }, 'scope main needs a provider and a model'],
    ['main without a provider', { scope: 'main', model: 'gpt-5' }, 'scope main needs a provider and a model'],
    ['auxiliary without a provider', { scope: 'auxiliary', task: 'vision', provider: '', model: 'x' }, 'scope auxiliary needs a provider'],
    ['auxiliary without task', { scope: 'auxiliary', provider: 'openai', model: 'gpt-5' }, 'scope auxiliary needs task'],
    ['an unknown task', { scope: 'auxiliary', task: 'dreaming', provider: 'openai', model: 'gpt-5' }, 'unknown task "dreaming"'],
    ['an unknown provider', { scope: 'main', provider: 'acme', model: 'x' }, 'unknown provider "acme"'],
  ];
  it.each(bad400)('400 for %s, and config.yaml is untouched', async (_name, body, message) => {
    const answer = await api('/api/model/set', { body });
    expect(answer.status).toBe(400);
    expect((answer.json as { error: string }).error).toContain(message);
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(CONFIG);
  });

  const bad422: Array<[string, string]> = [
    ['an array', '[]'],
    ['a string', '"main"'],
    ['null', 'null'],
    ['no scope', '{"provider":"openai","model":"gpt-5"}'],
    ['a number for provider', '{"scope":"main","provider":1,"model":"gpt-5"}'],
    ['not JSON', '{"scope":'],
  ];
  it.each(bad422)('422 for %s', async (_name, raw) => {
    const answer = await api('/api/model/set', { raw });
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({ error: anyString() });
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(CONFIG);
  });

  it('415 for a body that is not declared as JSON', async () => {
    expect(await api('/api/model/set', { raw: '{}', headers: { 'content-type': 'text/plain' } })).toMatchObject({ status: 415 });
  });
});

describe('iris dashboard start-up', () => {
  it('a port in use: a clear message and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runIris(['dashboard', '--port', String(port), '--no-open'], { home });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use; choose another with --port`);
    } finally {
      blocker.close();
    }
  });

  it('a non-loopback host needs a way to sign in (exit 2; dashboard-signin.test.ts has the rest)', async () => {
    const result = await runIris(['dashboard', '--host', '0.0.0.0', '--port', '0', '--no-open'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('0.0.0.0 is not a loopback address, and other machines must sign in to reach the dashboard there.');
  });
});

describe('the one JSON convention (docs/cli.md)', () => {
  it('every API answer has snake_case keys and ISO 8601 UTC times', async () => {
    const store = await openSqliteStore(join(home, 'state.db'));
    await store.recordUsage({ sessionId: null, at: Date.now(), provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', task: 'main', inputTokens: 10, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: 0.01 });
    await store.close();
    const answers: Array<[string, Answer]> = [
      ['GET /api/model/options', await api('/api/model/options')],
      ['GET /api/model/auxiliary', await api('/api/model/auxiliary')],
      ['GET /api/usage?since=7d', await api('/api/usage?since=7d')],
      ['GET /api/profiles', await api('/api/profiles')],
      ['POST /api/model/set (main)', await api('/api/model/set', { body: { scope: 'main', provider: 'openai', model: 'gpt-5' } })],
      ['POST /api/model/set (auxiliary)', await api('/api/model/set', { body: { scope: 'auxiliary', task: 'vision', provider: 'openai', model: 'gpt-5' } })],
      ['POST /api/model/set (reset)', await api('/api/model/set', { body: { scope: 'auxiliary', task: '__reset__', provider: '', model: '' } })],
      ['POST /api/profile/describe (404)', await api('/api/profile/describe', { body: { profile: 'nope' } })],
      ['GET /api/nope (404)', await api('/api/nope')],
      ['POST /api/login (404: no sign-in on loopback)', await api('/api/login', { body: { password: 'x' } })],
    ];
    const problems = answers.flatMap(([what, answer]) => {
      expect(answer.json, what).toBeDefined();
      return jsonConventionProblems(answer.json).map((problem) => `${what}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });
});
