import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseJson } from '../helpers/documents.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const iris = (args: string[], env?: Record<string, string>) => runIris(args, { home, ...(env ? { env } : {}) });

async function writeConfig(text: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), text, { mode: 0o600 });
}

async function writePidFile(text: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, 'gateway.pid'), text, { mode: 0o600 });
}

const FRESH_WARNING = "iris: warning: every slot: no main model is configured (model: ''); run iris setup (or iris model set <provider> <model>)\n";
const AGGREGATOR = 'openrouter · anthropic/claude-sonnet-4.5';
const OPENROUTER_KEY = 'sk-or-v1-test-0123456789abcdef';
const HOSTED_KEY = 'hosted-key-test-0123456789abcdef';

/** Eleven aux rows, each `auto → <route>` unless a row is given. */
function slotRows(main: string, pinned: Record<string, string> = {}): string {
  const names = [
    'Vision', 'Web Extract', 'Compression', 'Skills Hub', 'Approval', 'MCP', 'Title Gen',
    'Triage Specifier', 'Kanban Decomposer', 'Profile Describer', 'Curator',
  ];
  const auto = main === 'not configured' ? main : `auto → ${main}`;
  return [`Main               ${main}`, ...names.map((n) => `${n.padEnd(19)}${pinned[n] ?? auto}`)].join('\n');
}

describe('iris status', () => {
  it('on a fresh install: nothing configured, no credentials in use, the gateway not running', async () => {
    const result = await iris(['status']);
    expect(result).toEqual({
      code: 0,
      stdout: `${slotRows('not configured')}\n\nCredentials\n  none in use\n\nGateway            not running\n`,
      stderr: FRESH_WARNING,
    });
  });

  it('on a fresh install, as JSON', async () => {
    const result = await iris(['status', '--json']);
    expect(result.code).toBe(0);
    const report = parseJson(result.stdout);
    expect(Object.keys(report)).toEqual(['main', 'slots', 'providers', 'gateway', 'warnings']);
    expect(report.main).toEqual({ task: 'main', name: 'Main', auto: false, provider: null, model: null });
    expect(report.slots).toHaveLength(11);
    expect(report?.slots?.[6]).toEqual({ task: 'title_generation', name: 'Title Gen', auto: true, provider: null, model: null });
    expect(report.providers).toEqual([]);
    expect(report.gateway).toEqual({ state: 'not_running', pid_file: join(home, 'gateway.pid') });
  });

  describe('with a main model, a pinned slot and a missing credential', () => {
    beforeEach(() =>
      writeConfig(
        [
          'model:',
          '  provider: openrouter',
          '  default: google/gemini-2.5-pro',
          'auxiliary:',
          '  vision: { provider: anthropic, model: claude-haiku-4-5 }',
          '  compression: { provider: openrouter, model: google/gemini-2.5-flash }',
          '',
        ].join('\n'),
      ),
    );
    const env = { OPENROUTER_API_KEY: OPENROUTER_KEY };
    const warning =
      'iris: warning: vision: anthropic · claude-haiku-4-5 has no credential (set ANTHROPIC_API_KEY); ' +
      `using the aggregator default ${AGGREGATOR}\n`;

    it('prints one aligned line per slot, the credentials and a warning on stderr', async () => {
      const result = await iris(['status'], env);
      expect(result).toEqual({
        code: 0,
        stdout: [
          slotRows('openrouter · google/gemini-2.5-pro', {
            Vision: 'anthropic · claude-haiku-4-5  [no credential (set ANTHROPIC_API_KEY)]',
            Compression: 'openrouter · google/gemini-2.5-flash',
          }),
          '',
          'Credentials',
          '  openrouter  api key from OPENROUTER_API_KEY',
          '  anthropic   missing: set ANTHROPIC_API_KEY',
          '',
          'Gateway            not running',
          '',
        ].join('\n'),
        stderr: warning,
      });
    });

    it('--deep shows the aggregator default right behind the unusable route', async () => {
      const result = await iris(['status', '--deep'], env);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(warning);
      const lines = result.stdout.split('\n');
      const vision = lines.indexOf('Vision             anthropic · claude-haiku-4-5  [no credential (set ANTHROPIC_API_KEY)]');
      expect(lines.slice(vision, vision + 6)).toEqual([
        'Vision             anthropic · claude-haiku-4-5  [no credential (set ANTHROPIC_API_KEY)]',
        '  1. anthropic · claude-haiku-4-5 — auxiliary.vision sets anthropic · claude-haiku-4-5',
        '     unusable: no credential (set ANTHROPIC_API_KEY)',
        `  2. ${AGGREGATOR} — anthropic has no credential (set ANTHROPIC_API_KEY)`,
        '     api mode chat_completions, base URL https://openrouter.ai/api/v1',
        '',
      ]);
      const main = lines.indexOf('Main               openrouter · google/gemini-2.5-pro');
      expect(lines.slice(main, main + 6)).toEqual([
        'Main               openrouter · google/gemini-2.5-pro',
        '  1. openrouter · google/gemini-2.5-pro — the main model (model.provider / model.default)',
        '     api mode chat_completions, base URL https://openrouter.ai/api/v1',
        `  2. ${AGGREGATOR} — discovery: the aggregator default`,
        '     api mode chat_completions, base URL https://openrouter.ai/api/v1',
        '',
      ]);
      expect(result.stdout).not.toContain(OPENROUTER_KEY);
    });
  });

  it('--deep --json: a cloud-hosted gpt-5 deployment configured as chat_completions runs on codex_responses', async () => {
    await writeConfig(
      [
        '# a hosted deployment',
        'model:',
        '  provider: cloud-hosted',
        '  default: gpt-5',
        '  api_mode: chat_completions',
        '  base_url: https://my-resource.openai.azure.com/openai/v1?api-version=preview',
        '',
      ].join('\n'),
    );
    const result = await iris(['status', '--deep', '--json'], { CLOUD_HOSTED_API_KEY: HOSTED_KEY });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(HOSTED_KEY);
    const report = parseJson(result.stdout);
    const hosted = {
      provider: 'cloud-hosted',
      model: 'gpt-5',
      usable: true,
      api_mode: 'codex_responses',
      configured_api_mode: 'chat_completions',
      base_url: 'https://my-resource.openai.azure.com/openai/v1',
      notes: ['gpt-5 is served by the Responses API: using codex_responses (config unchanged)'],
    };
    const aggregator = {
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      reason: 'discovery',
      why: 'discovery: the aggregator default',
      usable: false,
      unusable: 'no credential (set OPENROUTER_API_KEY)',
    };
    expect(report.main).toEqual({
      task: 'main',
      name: 'Main',
      auto: false,
      provider: 'cloud-hosted',
      model: 'gpt-5',
      candidates: [{ ...hosted, reason: 'main', why: 'the main model (model.provider / model.default)' }, aggregator],
    });
    expect(report?.slots?.[0]).toEqual({
      task: 'vision',
      name: 'Vision',
      auto: true,
      provider: 'cloud-hosted',
      model: 'gpt-5',
      candidates: [{ ...hosted, reason: 'auto', why: 'auxiliary.vision is auto: the main model' }, aggregator],
    });
    expect(report.providers).toEqual([
      {
        provider: 'cloud-hosted',
        credential: 'api_key',
        source: 'CLOUD_HOSTED_API_KEY',
        usable: true,
        detail: 'api key from CLOUD_HOSTED_API_KEY',
      },
    ]);
    expect(report.warnings).toEqual([]);
  });

  it('--deep as text names the automatic switch and the base URL without its query', async () => {
    await writeConfig(
      [
        'model:',
        '  provider: cloud-hosted',
        '  default: gpt-5',
        '  api_mode: chat_completions',
        '  auth_mode: identity_token',
        '  base_url: https://my-resource.openai.azure.com/openai/v1?api-version=preview',
        '',
      ].join('\n'),
    );
    const result = await iris(['status', '--deep']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(0, 7)).toEqual([
      'Main               cloud-hosted · gpt-5',
      '  1. cloud-hosted · gpt-5 — the main model (model.provider / model.default)',
      '     api mode codex_responses (configured chat_completions), base URL https://my-resource.openai.azure.com/openai/v1',
      '     note: gpt-5 is served by the Responses API: using codex_responses (config unchanged)',
      `  2. ${AGGREGATOR} — discovery: the aggregator default`,
      '     unusable: no credential (set OPENROUTER_API_KEY)',
      '',
    ]);
    expect(result.stdout).toContain('\nCredentials\n  cloud-hosted  identity token (live token probe skipped)\n');
    expect(result.stdout).not.toContain('api-version');
  });

  describe('gateway state from $IRIS_HOME/gateway.pid', () => {
    const lastLine = (stdout: string) => stdout.split('\n').at(-2);

    it('running: the pid names a live process', async () => {
      await writePidFile(`${process.pid}\n`);
      const text = await iris(['status']);
      expect(text).toMatchObject({ code: 0, stderr: FRESH_WARNING });
      expect(lastLine(text.stdout)).toBe(`Gateway            running (pid ${process.pid})`);
      const json = parseJson((await iris(['status', '--json'])).stdout);
      expect(json.gateway).toEqual({ state: 'running', pid: process.pid, pid_file: join(home, 'gateway.pid') });
    });

    it('a stale pid file: the process is gone', async () => {
      const gone = 2 ** 22 + 1234; // above Linux's largest pid_max
      await writePidFile(`${gone}\n`);
      const text = await iris(['status']);
      expect(text).toMatchObject({ code: 0, stderr: FRESH_WARNING });
      expect(lastLine(text.stdout)).toBe('Gateway            not running (stale pid file)');
      const json = parseJson((await iris(['status', '--json'])).stdout);
      expect(json.gateway).toEqual({ state: 'stale_pid_file', pid: gone, pid_file: join(home, 'gateway.pid') });
    });

    it('a pid file that holds no pid', async () => {
      await writePidFile('not a pid\n');
      const text = await iris(['status']);
      expect(text).toMatchObject({ code: 0, stderr: FRESH_WARNING });
      expect(lastLine(text.stdout)).toBe(`Gateway            not running (unreadable pid file ${join(home, 'gateway.pid')})`);
      expect(parseJson((await iris(['status', '--json'])).stdout).gateway).toEqual({ state: 'bad_pid_file', pid_file: join(home, 'gateway.pid') });
    });
  });

  it('never prints a key, in any mode', async () => {
    await writeConfig(
      [
        'model: { provider: openrouter, default: x/y }',
        'auxiliary:',
        '  vision: { provider: openai, model: gpt-4.1, api_key: sk-inline-0123456789abcdef }',
        '',
      ].join('\n'),
    );
    for (const args of [['status'], ['status', '--deep'], ['status', '--json'], ['status', '--deep', '--json']]) {
      const result = await iris(args, { OPENROUTER_API_KEY: OPENROUTER_KEY });
      expect(result.code).toBe(0);
      expect(result.stdout + result.stderr).not.toMatch(/0123456789abcdef/);
    }
    const text = await iris(['status'], { OPENROUTER_API_KEY: OPENROUTER_KEY });
    expect(text.stdout).toContain('\n  openai      api key from config.yaml\n');
  });
});
