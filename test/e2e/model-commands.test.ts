import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseYaml } from '../helpers/documents.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const KEYS = { OPENROUTER_API_KEY: 'sk-or-test-0123456789', OPENAI_API_KEY: 'sk-openai-test-0123456789', ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' };
const iris = (args: string[], env: Record<string, string> = KEYS) => runIris(args, { home, env });
const configPath = () => join(home, 'config.yaml');
const configText = () => readFile(configPath(), 'utf8');
const APPLIES = 'Changes apply to new sessions; running sessions keep their model.';
const TASKS = [
  'vision', 'web_extract', 'compression', 'skills_hub', 'approval', 'mcp', 'title_generation',
  'triage_specifier', 'kanban_decomposer', 'profile_describer', 'curator',
];

async function writeConfig(text: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(configPath(), text, { mode: 0o600 });
}

const HOSTED_CONFIG = `# my Iris config
model:
  provider: cloud-hosted # where the deployments live
  default: gpt-4o
  base_url: https://my-resource.openai.azure.com/openai/v1
  api_mode: chat_completions
  auth_mode: identity_token
  context_length: 128000
auxiliary:
  # vision stays on Claude
  vision:
    provider: anthropic
    model: claude-haiku-4-5
    timeout: 90
  compression: { provider: cloud-hosted, model: gpt-4o-mini }
`;

describe('iris model set', () => {
  it('sets the main model on a fresh install and keeps the starter comments', async () => {
    const result = await iris(['model', 'set', 'openai', 'gpt-5.1']);
    expect(result).toEqual({ code: 0, stdout: `main: not configured → openai · gpt-5.1\n${APPLIES}\n`, stderr: '' });
    expect(await configText()).toBe(
      [
        '# Iris configuration. Every key and its default: docs/configuration.md',
        '# `iris config set <dotted.key> <value>` edits this file and keeps your comments.',
        'model:',
        '  provider: openai',
        '  default: gpt-5.1',
        '',
      ].join('\n'),
    );
  });

  it('warns when the new provider has no credential (the aggregator default serves)', async () => {
    const result = await iris(['model', 'set', 'openai', 'gpt-5.1'], { OPENROUTER_API_KEY: KEYS.OPENROUTER_API_KEY });
    expect(result).toEqual({
      code: 0,
      stdout: `main: not configured → openai · gpt-5.1\n${APPLIES}\n`,
      stderr:
        'iris: warning: main: openai · gpt-5.1 has no credential (set OPENAI_API_KEY); ' +
        'using the aggregator default openrouter · anthropic/claude-sonnet-4.5\n',
    });
  });

  it('on a provider switch: drops what belonged to the old provider, clears base_url, names stale aux pins, keeps comments', async () => {
    await writeConfig(HOSTED_CONFIG);
    const result = await iris(['model', 'set', 'openrouter', 'anthropic/claude-sonnet-4.5']);
    expect(result).toEqual({
      code: 0,
      stdout: [
        'main: cloud-hosted · gpt-4o → openrouter · anthropic/claude-sonnet-4.5',
        'dropped: model.api_mode, model.auth_mode, model.context_length',
        'cleared: model.base_url (it belonged to cloud-hosted)',
        'note: vision stays on anthropic · claude-haiku-4-5 (pinned)',
        "warning: compression becomes unusable: cloud-hosted has no endpoint URL (set base_url or CLOUD_HOSTED_BASE_URL); give it its own endpoint (iris model aux set compression cloud-hosted gpt-4o-mini --base-url <url>) or put it back on auto (iris model aux set compression auto '')",
        APPLIES,
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(await configText()).toBe(`# my Iris config
model:
  provider: openrouter # where the deployments live
  default: anthropic/claude-sonnet-4.5
  base_url: ""
auxiliary:
  # vision stays on Claude
  vision:
    provider: anthropic
    model: claude-haiku-4-5
    timeout: 90
  compression: { provider: cloud-hosted, model: gpt-4o-mini }
`);
  });

  it('prints the change as JSON', async () => {
    await writeConfig(HOSTED_CONFIG);
    const result = await iris(['model', 'set', 'openrouter', 'anthropic/claude-sonnet-4.5', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      scope: 'main',
      previous: { provider: 'cloud-hosted', model: 'gpt-4o' },
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      dropped: ['model.api_mode', 'model.auth_mode', 'model.context_length'],
      cleared: ['model.base_url'],
      stale_aux: [
        { task: 'vision', provider: 'anthropic', model: 'claude-haiku-4-5' },
        { task: 'compression', provider: 'cloud-hosted', model: 'gpt-4o-mini', unusable: 'no endpoint URL (set base_url or CLOUD_HOSTED_BASE_URL)' },
      ],
      file: configPath(),
    });
  });

  it('says so when nothing changes', async () => {
    await iris(['model', 'set', 'openai', 'gpt-5.1']);
    expect(await iris(['model', 'set', 'openai', 'gpt-5.1'])).toEqual({ code: 0, stdout: 'main: openai · gpt-5.1 (unchanged)\n', stderr: '' });
  });

  it('names what a built-in short name resolves to', async () => {
    const result = await iris(['model', 'set', 'anthropic', 'sonnet']);
    expect(result).toEqual({
      code: 0,
      stdout: `main: not configured → anthropic · sonnet\nnote: sonnet is an alias: the main model resolves to anthropic · claude-sonnet-4-6\n${APPLIES}\n`,
      stderr: '',
    });
  });
});

describe('iris model aux', () => {
  it('set <task> pins one slot and keeps its other settings and the comments', async () => {
    await writeConfig(HOSTED_CONFIG);
    const result = await iris(['model', 'aux', 'set', 'title_generation', 'openai', 'gpt-5-mini']);
    expect(result).toEqual({ code: 0, stdout: `title_generation: auto → openai · gpt-5-mini\n${APPLIES}\n`, stderr: '' });
    const vision = await iris(['model', 'aux', 'set', 'vision', 'openai', 'gpt-4.1']);
    expect(vision).toEqual({ code: 0, stdout: `vision: anthropic · claude-haiku-4-5 → openai · gpt-4.1\n${APPLIES}\n`, stderr: '' });
    const text = await configText();
    expect(text).toContain('  # vision stays on Claude\n  vision:\n    provider: openai\n    model: gpt-4.1\n    timeout: 90\n');
    expect(parseYaml(text)?.auxiliary?.title_generation).toEqual({ provider: 'openai', model: 'gpt-5-mini' });
  });

  it('set <task> to what it already is: no change', async () => {
    await writeConfig(HOSTED_CONFIG);
    expect(await iris(['model', 'aux', 'set', 'vision', 'anthropic', 'claude-haiku-4-5'])).toEqual({
      code: 0,
      stdout: 'no change: vision is already on anthropic · claude-haiku-4-5\n',
      stderr: '',
    });
  });

  it('set <task> warns when the provider has no credential', async () => {
    const result = await iris(['model', 'aux', 'set', 'vision', 'anthropic', 'claude-haiku-4-5'], { OPENROUTER_API_KEY: KEYS.OPENROUTER_API_KEY });
    expect(result).toEqual({
      code: 0,
      stdout: `vision: auto → anthropic · claude-haiku-4-5\n${APPLIES}\n`,
      stderr:
        'iris: warning: vision: anthropic · claude-haiku-4-5 has no credential (set ANTHROPIC_API_KEY); ' +
        'using the aggregator default openrouter · anthropic/claude-sonnet-4.5\n',
    });
  });

  it('set all assigns every slot', async () => {
    await writeConfig(HOSTED_CONFIG);
    const result = await iris(['model', 'aux', 'set', 'all', 'openai', 'gpt-5-mini']);
    const before: Record<string, string> = { vision: 'anthropic · claude-haiku-4-5', compression: 'cloud-hosted · gpt-4o-mini' };
    expect(result).toEqual({
      code: 0,
      stdout: `${TASKS.map((t) => `${t}: ${before[t] ?? 'auto'} → openai · gpt-5-mini`).join('\n')}\n${APPLIES}\n`,
      stderr: '',
    });
    const aux = parseYaml(await configText()).auxiliary;
    expect(Object.keys(aux ?? {}).sort()).toEqual([...TASKS].sort());
    for (const task of TASKS) expect(aux?.[task]).toMatchObject({ provider: 'openai', model: 'gpt-5-mini' });
    expect(aux?.vision?.timeout).toBe(90);
  });

  it('set all as JSON', async () => {
    const result = await iris(['model', 'aux', 'set', 'all', 'openai', 'gpt-5-mini', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      scope: 'auxiliary',
      task: '',
      reset: false,
      changes: TASKS.map((task) => ({ task, previous: { provider: 'auto', model: '' }, provider: 'openai', model: 'gpt-5-mini', cleared: [] })),
      file: configPath(),
    });
  });

  it('reset puts every slot back on auto and keeps timeouts, fallback chains and other fields', async () => {
    await writeConfig(`# keep me
model: { provider: openrouter, default: anthropic/claude-sonnet-4.5 }
auxiliary:
  vision:
    provider: anthropic # pinned for images
    model: claude-haiku-4-5
    timeout: 90
    download_timeout: 15
    extra_body: { temperature: 0 }
    fallback_chain:
      - { provider: openai, model: gpt-4.1 }
  curator: { provider: openai, model: gpt-5-mini, timeout: 900 }
`);
    const result = await iris(['model', 'aux', 'reset']);
    expect(result).toEqual({
      code: 0,
      stdout: ['vision: anthropic · claude-haiku-4-5 → auto', 'curator: openai · gpt-5-mini → auto', `unchanged: ${TASKS.filter((t) => t !== 'vision' && t !== 'curator').join(', ')} (already on auto)`, APPLIES, ''].join('\n'),
      stderr: '',
    });
    const text = await configText();
    expect(text.startsWith('# keep me\n')).toBe(true);
    expect(text).toContain('    provider: auto # pinned for images\n');
    const aux = parseYaml(text).auxiliary;
    expect(aux?.vision).toEqual({
      provider: 'auto',
      model: '',
      timeout: 90,
      download_timeout: 15,
      extra_body: { temperature: 0 },
      fallback_chain: [{ provider: 'openai', model: 'gpt-4.1' }],
    });
    expect(aux?.curator).toEqual({ provider: 'auto', model: '', timeout: 900 });
    const again = await iris(['model', 'aux', 'reset', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ scope: 'auxiliary', task: '__reset__', reset: true });
    expect(await iris(['model', 'aux', 'reset'])).toEqual({ code: 0, stdout: 'no change: all 11 auxiliary slots are already on auto\n', stderr: '' });
  });
});

describe('invalid input', () => {
  it.each([
    [['model', 'set', 'nope', 'x'], 'unknown provider "nope"'],
    [['model', 'set', 'openai', ' '], 'the main model needs a provider and a model'],
    [['model', 'aux', 'set', 'bogus', 'openai', 'gpt-4.1'], `unknown task "bogus" (tasks: ${TASKS.join(', ')})`],
    [['model', 'aux', 'set', 'vision', 'nope', 'x'], 'unknown provider "nope"'],
    [['model', 'aux', 'set', 'vision', ' ', 'x'], 'an auxiliary assignment needs a provider'],
  ])('%j exits 2 with the library message and leaves the file as it was', async (args, message) => {
    await writeConfig(HOSTED_CONFIG);
    expect(await iris(args)).toEqual({ code: 2, stdout: '', stderr: `iris: error: ${message}\n` });
    expect(await configText()).toBe(HOSTED_CONFIG);
  });

  it('writes nothing on a fresh install', async () => {
    expect((await iris(['model', 'set', 'nope', 'x'])).code).toBe(2);
    await expect(stat(configPath())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('iris model alone without a terminal says what to use instead and exits 2', async () => {
    const result = await iris(['model']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('iris: error: the model picker needs a terminal; use iris model set <provider> <model> (or iris setup with flags)\n');
    const aux = await iris(['model', 'aux']);
    expect(aux.code).toBe(2);
    expect(aux.stderr).toContain('Usage: iris model aux [options] [command]');
  });

  it('iris model --help exits 0', async () => {
    const result = await iris(['model', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: iris model [options] [command]');
  });
});

describe('iris model aux set across providers', () => {
  it('clears the key and endpoint that belonged to the previous provider, and says so', async () => {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), 'auxiliary:\n  vision: { provider: openai, model: gpt-4.1, api_key: sk-proj-0123456789abcdef, timeout: 90 }\n', { mode: 0o600 });
    const result = await runIris(['model', 'aux', 'set', 'vision', 'openrouter', 'google/gemini-2.5-flash'], { home, env: { OPENROUTER_API_KEY: 'k' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('vision: openai · gpt-4.1 → openrouter · google/gemini-2.5-flash\n  cleared: auxiliary.vision.api_key (set for openai)\n');
    expect(result.stdout).not.toContain('0123456789abcdef');
    expect(parseYaml(await readFile(join(home, 'config.yaml'), 'utf8')).auxiliary?.vision).toEqual({
      provider: 'openrouter',
      model: 'google/gemini-2.5-flash',
      api_key: '',
      timeout: 90,
    });
  });
});
