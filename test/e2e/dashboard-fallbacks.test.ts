// The Models page's fallback lists and Test button (issue 39) against the real `iris dashboard`:
// the token and Host checks, refused bodies, a chain written into config.yaml with its comments
// kept, and a Test that fails over from one fake upstream (OpenAI, answering 503) to another
// (Anthropic), naming the second and the failed attempt, its usage counted under `dashboard`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { dashboardApi, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

const CONFIG = [
  '# keep: who answers by default',
  'model:',
  '  provider: openai',
  '  default: main-m',
  'auxiliary:',
  '  vision:',
  '    # keep: vision stays on auto',
  '    provider: auto',
  '# keep: the global chain',
  'fallback_providers:',
  '  - provider: anthropic',
  '    model: claude-backup',
  '',
].join('\n');
const KEYS = { OPENAI_API_KEY: 'sk-openai-test-0123456789', ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' };
const OPENAI_503 = 'openai (chat_completions) answered 503: Fake upstream error (HTTP 503).';
const AUX = 'vision, web_extract, compression, skills_hub, approval, mcp, title_generation, triage_specifier, kanban_decomposer, profile_describer, curator';
const PROVIDERS = 'providers: openrouter, openai, anthropic, cloud-hosted, custom';

let openai: FakeUpstream;
let anthropic: FakeUpstream;
let dir: string;
let home: string;
let dash: DashboardProcess;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
});
afterAll(() => Promise.all([openai.close(), anthropic.close()]));
beforeEach(async () => {
  openai.reset();
  anthropic.reset();
  dir = await makeTempDir('iris-dashboard-fallbacks-');
  home = join(dir, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), CONFIG, { mode: 0o600 });
  await writeFile(join(home, '.env'), `OPENAI_BASE_URL=${openai.url}/v1\nANTHROPIC_BASE_URL=${anthropic.url}\n`, { mode: 0o600 });
  dash = await startDashboardProcess(home, KEYS);
});
afterEach(async () => {
  await dash.stop();
  await removeDir(dir);
});

const configText = () => readFile(join(home, 'config.yaml'), 'utf8');

type AuditRow = { action: string; target: string; ok: boolean; reason?: string };
async function auditRows(): Promise<Array<[string, string, boolean, string]>> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditRow)
    .map((row) => [row.action, row.target, row.ok, row.reason ?? '']);
}

const { send, answer } = dashboardApi(() => dash);

const ENDPOINTS = [
  ['GET', '/api/model/fallbacks', undefined],
  ['PUT', '/api/model/fallbacks/vision', { chain: [{ provider: 'openai', model: 'x' }] }],
  ['PUT', '/api/model/fallbacks', { fallback_providers: [] }],
  ['POST', '/api/model/test', { task: 'main' }],
] as const;

const emptyTasks = (except: Record<string, unknown[]> = {}) =>
  [
    ['vision', 'Vision'],
    ['web_extract', 'Web Extract'],
    ['compression', 'Compression'],
    ['skills_hub', 'Skills Hub'],
    ['approval', 'Approval'],
    ['mcp', 'MCP'],
    ['title_generation', 'Title Gen'],
    ['triage_specifier', 'Triage Specifier'],
    ['kanban_decomposer', 'Kanban Decomposer'],
    ['profile_describer', 'Profile Describer'],
    ['curator', 'Curator'],
  ].map(([task, name]) => ({ task, name, fallback_chain: except[task!] ?? [] }));

describe('the fallbacks API', { timeout: 60_000 }, () => {
  it('needs the token and the right Host on every endpoint, and changes nothing without them', async () => {
    for (const [method, path, body] of ENDPOINTS) {
      expect([method, path, ...(await answer(path, { method, body, token: null }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, token: 'wrong' }))]).toEqual([method, path, 401, { error: 'Unauthorized' }]);
      expect([method, path, ...(await answer(path, { method, body, host: 'evil.example:80' }))]).toEqual([method, path, 400, { error: 'Invalid Host header' }]);
    }
    expect(await configText()).toBe(CONFIG);
    expect(openai.requests).toEqual([]);
    await expect(readFile(join(home, 'logs', 'audit.log'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('lists every task chain and the global list as config.yaml holds them', async () => {
    expect(await answer('/api/model/fallbacks')).toEqual([
      200,
      { tasks: emptyTasks(), fallback_providers: [{ provider: 'anthropic', model: 'claude-backup' }], fallback_model: '' },
    ]);
  });

  it('refuses bad bodies with 400 (the config validator’s words) and writes nothing', async () => {
    const put = (path: string, body: unknown) => answer(path, { method: 'PUT', body });
    expect(await put('/api/model/fallbacks/nope', { chain: [] })).toEqual([400, { error: `unknown task "nope" (tasks: ${AUX})` }]);
    expect(await put('/api/model/fallbacks/vision', { chain: 'openai/x' })).toEqual([400, { error: 'chain must be a list of {provider, model}' }]);
    expect(await put('/api/model/fallbacks/vision', { chain: [{ provider: 'openai' }] })).toEqual([
      400,
      { error: 'auxiliary.vision.fallback_chain.0.model: missing (allowed: a non-empty string)' },
    ]);
    expect(await put('/api/model/fallbacks/vision', { chain: [{ provider: 42, model: 'm' }] })).toEqual([
      400,
      { error: 'auxiliary.vision.fallback_chain.0.provider: 42 is not valid (allowed: a non-empty string)' },
    ]);
    expect(await put('/api/model/fallbacks/vision', { chain: [{ provider: 'nope', model: 'm' }] })).toEqual([
      400,
      { error: `auxiliary.vision.fallback_chain.0.provider: unknown provider "nope" (${PROVIDERS})` },
    ]);
    expect(await put('/api/model/fallbacks', { fallback_providers: [{ provider: 'openai', model: '' }] })).toEqual([
      400,
      { error: 'fallback_providers.0.model: "" is not valid (allowed: a non-empty string)' },
    ]);
    expect(await put('/api/model/fallbacks', {})).toEqual([400, { error: 'give fallback_providers (a list of {provider, model}) or fallback_model' }]);
    expect(await put('/api/model/fallbacks', [])).toEqual([400, { error: 'the body must be a JSON object {fallback_providers?, fallback_model?}' }]);
    expect(await answer('/api/model/test', { body: { task: 'nope' } })).toEqual([400, { error: `unknown task "nope" (tasks: main, ${AUX})` }]);
    expect(await answer('/api/model/test', { body: {} })).toEqual([400, { error: 'task must be a string: main or an auxiliary task id' }]);
    expect(await configText()).toBe(CONFIG);
    expect(openai.requests).toEqual([]);
    expect((await auditRows()).map(([action, , ok]) => [action, ok])).toEqual([
      ...Array.from({ length: 8 }, () => ['model.fallbacks', false]),
      ['model.test', false],
      ['model.test', false],
    ]);
  });

  it('writes a chain and the global list into config.yaml, every comment kept, and audits them', async () => {
    const chain = [
      { provider: 'anthropic', model: 'claude-vision' },
      { provider: 'openai', model: 'gpt-vision' },
    ];
    const [status, body] = await answer('/api/model/fallbacks/vision', { method: 'PUT', body: { chain } });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, tasks: emptyTasks({ vision: chain }), fallback_providers: [{ provider: 'anthropic', model: 'claude-backup' }], fallback_model: '' });
    expect(await configText()).toBe(
      CONFIG.replace(
        '    provider: auto\n',
        '    provider: auto\n    fallback_chain:\n      - provider: anthropic\n        model: claude-vision\n      - provider: openai\n        model: gpt-vision\n',
      ),
    );

    const global = [{ provider: 'openai', model: 'gpt-backup' }];
    expect((await answer('/api/model/fallbacks', { method: 'PUT', body: { fallback_providers: global, fallback_model: 'anthropic/claude-last' } }))[0]).toBe(200);
    const text = await configText();
    expect(text).toContain('# keep: who answers by default\n');
    expect(text).toContain('    # keep: vision stays on auto\n');
    expect(text).toContain('# keep: the global chain\nfallback_providers:\n  - provider: openai\n    model: gpt-backup\nfallback_model: anthropic/claude-last\n');
    expect(await answer('/api/model/fallbacks')).toEqual([200, { tasks: emptyTasks({ vision: chain }), fallback_providers: global, fallback_model: 'anthropic/claude-last' }]);

    // The CLI reads the same file the same way.
    const got = await runIris(['config', 'get', 'auxiliary.vision.fallback_chain', '--json'], { home });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(chain);

    expect(await auditRows()).toEqual([
      ['model.fallbacks', 'auxiliary.vision.fallback_chain (2)', true, ''],
      ['model.fallbacks', 'fallback_providers (1), fallback_model', true, ''],
    ]);
  });

  it('Test sends one short request through routing: the first provider answers 503, the second answers and is named', async () => {
    openai.script('main-m', { kind: 'error', status: 503 });
    anthropic.script('claude-backup', { kind: 'text', deltas: ['ok'], usage: { input: 12, output: 1 } });
    const got = await send('/api/model/test', { body: { task: 'main' } });
    expect(got.status).toBe(200);
    const { latency_ms: latency, ...body } = got.json as { latency_ms: unknown };
    expect(typeof latency).toBe('number');
    expect(body).toEqual({
      ok: true,
      task: 'main',
      provider: 'anthropic',
      model: 'claude-backup',
      fell_back: true,
      reply: 'ok',
      attempts: [
        { provider: 'openai', model: 'main-m', reason: 'main', outcome: 'failed', detail: `server: ${OPENAI_503}` },
        { provider: 'anthropic', model: 'claude-backup', reason: 'fallback_providers', outcome: 'served' },
      ],
    });
    expect(openai.requests.map((r) => (r.body as { model: string }).model)).toEqual(['main-m']);
    expect(anthropic.requests.map((r) => (r.body as { model: string; max_tokens: number }).max_tokens)).toEqual([32]);

    const usage = await runIris(['usage', '--by', 'source', '--json'], { home });
    expect(usage.code).toBe(0);
    expect((JSON.parse(usage.stdout) as Array<{ key: string; calls: number; input_tokens: number }>).map((row) => [row.key, row.calls, row.input_tokens])).toEqual([['dashboard', 1, 12]]);
    expect(await auditRows()).toEqual([['model.test', 'main → anthropic/claude-backup', true, '']]);
  });

  it('Test answers 502 with every attempt when no route answers', async () => {
    await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: main-m\n', { mode: 0o600 });
    openai.script('main-m', { kind: 'error', status: 503 });
    openai.script('gpt-5.1', { kind: 'error', status: 503 });
    anthropic.script('claude-sonnet-4-5', { kind: 'overloaded' });
    const got = await send('/api/model/test', { body: { task: 'title_generation' } });
    expect(got.status).toBe(502);
    const { latency_ms: latency, ...body } = got.json as { latency_ms: unknown; error: string };
    expect(typeof latency).toBe('number');
    expect(body).toEqual({
      ok: false,
      task: 'title_generation',
      error: `title_generation: every route failed: ${OPENAI_503} [tried: openai · main-m (server), openrouter · anthropic/claude-sonnet-4.5 (no credential (set OPENROUTER_API_KEY)), openai · gpt-5.1 (server), anthropic · claude-sonnet-4-5 (overloaded)]`,
      attempts: [
        { provider: 'openai', model: 'main-m', reason: 'auto', outcome: 'failed', detail: `server: ${OPENAI_503}` },
        { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', reason: 'discovery', outcome: 'skipped', detail: 'no credential (set OPENROUTER_API_KEY)' },
        { provider: 'openai', model: 'gpt-5.1', reason: 'discovery', outcome: 'failed', detail: `server: ${OPENAI_503}` },
        { provider: 'anthropic', model: 'claude-sonnet-4-5', reason: 'discovery', outcome: 'failed', detail: 'overloaded: anthropic (anthropic_messages) answered 529: Overloaded' },
      ],
    });
    expect(await auditRows()).toEqual([['model.test', 'title_generation', false, `502: title_generation: every route failed: ${OPENAI_503} [tried: openai · main-m (server), openrouter · anthropic/claude-sonnet-4.5 (no creden…` /* the audit line shortens a long reason */]]);
  });
});
