// Issue 14, "Readable at a glance": colour on a terminal (and only there, unless asked), the slots
// that follow the main model collapsed in `iris status --deep`, and `iris config show --changed`.
// bin/iris against a temporary IRIS_HOME; exact text.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IRIS_BIN, makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseJson, parseYaml } from '../helpers/documents.js';
import { startPty } from '../helpers/pty.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const ESC = '\u001b';
const green = (text: string) => `${ESC}[32m${text}${ESC}[39m`;
const yellow = (text: string) => `${ESC}[33m${text}${ESC}[39m`;
const red = (text: string) => `${ESC}[31m${text}${ESC}[39m`;
const dim = (text: string) => `${ESC}[2m${text}${ESC}[22m`;
// SGR sequences: all this CLI writes.
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
const strip = (text: string) => text.replace(SGR, '');

const writeConfig = (text: string) => writeFile(join(home, 'config.yaml'), text, { mode: 0o600 });
const iris = (args: string[], env: Record<string, string> = {}) => runIris(args, { home, env });

/** A doctor run with every kind of line: ✓, ! (an unknown key), ✗ (a loose mode, a missing key) and fixes. */
async function troubledHome(): Promise<void> {
  await writeConfig('model:\n  provider: openrouter\n  default: x/y\nmystery: 1\n');
  await chmod(join(home, 'config.yaml'), 0o644);
}

const STATUS_CONFIG = [
  'model:',
  '  provider: openrouter',
  '  default: anthropic/claude-sonnet-4.5',
  'auxiliary:',
  '  vision: { provider: anthropic, model: claude-haiku-4-5 }',
  '  compression:',
  '    provider: openrouter',
  '    model: google/gemini-2.5-flash',
  '  mcp:',
  '    fallback_chain:',
  '      - { provider: openai, model: gpt-5-mini }',
  '  curator:',
  '    timeout: 900',
  'fallback_providers:',
  '  - { provider: openai, model: gpt-5.1 }',
  '',
].join('\n');
const STATUS_ENV = { OPENROUTER_API_KEY: 'sk-or-v1-glance-0123456789abcdef', OPENAI_API_KEY: 'sk-openai-glance-0123456789abcdef' };
const OPENROUTER_URL = 'https://openrouter.ai/api/v1';
const OPENAI_URL = 'https://api.openai.com/v1';

describe('colour', () => {
  it('piped: no escape at all, in doctor and in status', async () => {
    await troubledHome();
    const doctor = await iris(['doctor', '--offline']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout.split('\n')[0]).toBe(`✓ home: ${home} (mode 0700)`);
    expect(doctor.stdout).not.toContain(ESC);
    await chmod(join(home, 'config.yaml'), 0o600);
    await writeConfig(STATUS_CONFIG);
    for (const args of [['status'], ['status', '--deep']]) {
      const status = await iris(args, STATUS_ENV);
      expect(status.code).toBe(0);
      expect(status.stdout.split('\n')[0]).toBe('Main               openrouter · anthropic/claude-sonnet-4.5');
      expect(status.stdout).not.toContain(ESC);
      expect(status.stderr).not.toContain(ESC);
    }
  });

  it('FORCE_COLOR=1 through a pipe: doctor marks in green, yellow and red, fixes and notes dim; the text is otherwise the same', async () => {
    await troubledHome();
    const plain = await iris(['doctor', '--offline']);
    const colored = await iris(['doctor', '--offline'], { FORCE_COLOR: '1' });
    expect(colored.code).toBe(1);
    const config = join(home, 'config.yaml');
    expect(colored.stdout).toBe(
      [
        `${green('✓')} home: ${home} (mode 0700)`,
        `${red('✗')} permissions: config.yaml is 0644 (want 0600)`,
        `  ${dim(`fix: chmod 600 ${config}`)}`,
        `${green('✓')} config: ${config} is valid`,
        `${yellow('!')} config: unknown key mystery (kept as written, not used by this version)`,
        `  ${dim(`fix: check the spelling, or remove it from ${config}`)}`,
        `${green('✓')} main model: openrouter · x/y`,
        `${green('✓')} auxiliary slots: all 11 follow the main model (auto)`,
        `${red('✗')} openrouter credential: no api key: OPENROUTER_API_KEY is not set (used by main)`,
        `  ${dim('fix: iris config set OPENROUTER_API_KEY <key>')}`,
        `${green('✓')} store: no state.db yet (created on first use)`,
        `${red('not healthy')}: 5 ok, 1 warning, 2 failed ${dim('(--offline: live probes skipped)')}`,
        '',
      ].join('\n'),
    );
    expect(strip(colored.stdout)).toBe(plain.stdout);
  });

  it('FORCE_COLOR=1: status colours the problems and dims the reasons; --json stays plain', async () => {
    await writeConfig(STATUS_CONFIG);
    const plain = await iris(['status', '--deep'], STATUS_ENV);
    const colored = await iris(['status', '--deep'], { ...STATUS_ENV, FORCE_COLOR: '1' });
    expect(colored.code).toBe(0);
    const lines = colored.stdout.split('\n');
    const vision = lines.indexOf(`Vision             anthropic · claude-haiku-4-5  ${yellow('[no credential (set ANTHROPIC_API_KEY)]')}`);
    expect(lines.slice(vision, vision + 8)).toEqual([
      `Vision             anthropic · claude-haiku-4-5  ${yellow('[no credential (set ANTHROPIC_API_KEY)]')}`,
      `  1. anthropic · claude-haiku-4-5 ${dim('— auxiliary.vision sets anthropic · claude-haiku-4-5')}`,
      `     ${yellow('unusable: no credential (set ANTHROPIC_API_KEY)')}`,
      `  2. openrouter · anthropic/claude-sonnet-4.5 ${dim('— anthropic has no credential (set ANTHROPIC_API_KEY)')}`,
      `     ${dim(`api mode chat_completions, base URL ${OPENROUTER_URL}`)}`,
      `  3. openai · gpt-5.1 ${dim('— fallback_providers[0]')}`,
      `     ${dim(`api mode chat_completions, base URL ${OPENAI_URL}`)}`,
      '',
    ]);
    expect(lines).toContain(`  anthropic   ${red('missing: set ANTHROPIC_API_KEY')}`);
    expect(lines).toContain('  openrouter  api key from OPENROUTER_API_KEY');
    expect(strip(colored.stdout)).toBe(plain.stdout);
    const json = await iris(['status', '--deep', '--json'], { ...STATUS_ENV, FORCE_COLOR: '1' });
    expect(json.stdout).not.toContain(ESC);
  });

  it('NO_COLOR wins over FORCE_COLOR; FORCE_COLOR=0 means none', async () => {
    await troubledHome();
    const plain = await iris(['doctor', '--offline']);
    expect(plain.stdout).not.toContain(ESC);
    expect(await iris(['doctor', '--offline'], { NO_COLOR: '1', FORCE_COLOR: '1' })).toEqual(plain);
    expect(await iris(['doctor', '--offline'], { FORCE_COLOR: '0' })).toEqual(plain);
  });

  async function onTerminal(env: Record<string, string>): Promise<{ code: number | null; raw: string }> {
    const session = startPty([process.execPath, IRIS_BIN, 'doctor', '--offline'], { IRIS_HOME: home, ...env });
    let raw = '';
    session.child.stdout?.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    const code = await session.exited;
    return { code, raw };
  }

  it('on a terminal, colour by default', async () => {
    await troubledHome();
    const { code, raw } = await onTerminal({});
    expect(code).toBe(1);
    expect(raw).toContain(`${green('✓')} home: ${home} (mode 0700)\r\n`);
    expect(raw).toContain(`${red('✗')} permissions: config.yaml is 0644 (want 0600)\r\n`);
    expect(raw).toContain(`${yellow('!')} config: unknown key mystery`);
    expect(raw).toContain(`  ${dim('fix: iris config set OPENROUTER_API_KEY <key>')}\r\n`);
  });

  it('on a terminal with NO_COLOR set: none', async () => {
    await troubledHome();
    const { code, raw } = await onTerminal({ NO_COLOR: '1' });
    expect(code).toBe(1);
    expect(raw).toContain(`✓ home: ${home} (mode 0700)\r\n`);
    expect(raw).not.toMatch(SGR);
  });
});

describe('iris status --deep collapses the slots that follow the main model', () => {
  const mainBlock = [
    'Main               openrouter · anthropic/claude-sonnet-4.5',
    '  1. openrouter · anthropic/claude-sonnet-4.5 — the main model (model.provider / model.default)',
    `     api mode chat_completions, base URL ${OPENROUTER_URL}`,
    '  2. openai · gpt-5.1 — fallback_providers[0]',
    `     api mode chat_completions, base URL ${OPENAI_URL}`,
    '',
  ];

  it('one line names the slots on auto with the main chain; a slot with its own route or chain stays expanded', async () => {
    await writeConfig(STATUS_CONFIG);
    const result = await iris(['status', '--deep'], STATUS_ENV);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        ...mainBlock,
        // Curator's own timeout changes no route: it follows too.
        '8 slots follow Main (auto, same chain): Web Extract, Skills Hub, Approval, Title Gen, Triage Specifier, Kanban Decomposer, Profile Describer, Curator',
        '',
        'Vision             anthropic · claude-haiku-4-5  [no credential (set ANTHROPIC_API_KEY)]',
        '  1. anthropic · claude-haiku-4-5 — auxiliary.vision sets anthropic · claude-haiku-4-5',
        '     unusable: no credential (set ANTHROPIC_API_KEY)',
        '  2. openrouter · anthropic/claude-sonnet-4.5 — anthropic has no credential (set ANTHROPIC_API_KEY)',
        `     api mode chat_completions, base URL ${OPENROUTER_URL}`,
        '  3. openai · gpt-5.1 — fallback_providers[0]',
        `     api mode chat_completions, base URL ${OPENAI_URL}`,
        '',
        'Compression        openrouter · google/gemini-2.5-flash',
        '  1. openrouter · google/gemini-2.5-flash — auxiliary.compression sets openrouter · google/gemini-2.5-flash',
        `     api mode chat_completions, base URL ${OPENROUTER_URL}`,
        '  2. openai · gpt-5.1 — fallback_providers[0]',
        `     api mode chat_completions, base URL ${OPENAI_URL}`,
        '  3. openrouter · anthropic/claude-sonnet-4.5 — discovery: the aggregator default',
        `     api mode chat_completions, base URL ${OPENROUTER_URL}`,
        '',
        'MCP                auto → openrouter · anthropic/claude-sonnet-4.5',
        '  1. openrouter · anthropic/claude-sonnet-4.5 — auxiliary.mcp is auto: the main model',
        `     api mode chat_completions, base URL ${OPENROUTER_URL}`,
        '  2. openai · gpt-5-mini — auxiliary.mcp.fallback_chain[0]',
        `     api mode chat_completions, base URL ${OPENAI_URL}`,
        '  3. openai · gpt-5.1 — fallback_providers[0]',
        `     api mode chat_completions, base URL ${OPENAI_URL}`,
        '',
        'Credentials',
        '  openrouter  api key from OPENROUTER_API_KEY',
        '  openai      api key from OPENAI_API_KEY',
        '  anthropic   missing: set ANTHROPIC_API_KEY',
        '',
        'Gateway            not running',
        '',
      ].join('\n'),
    );
  });

  it('--json keeps every slot in full', async () => {
    await writeConfig(STATUS_CONFIG);
    const report = parseJson((await iris(['status', '--deep', '--json'], STATUS_ENV)).stdout);
    expect(report.slots).toHaveLength(11);
    expect(report?.slots?.[1]).toEqual({
      task: 'web_extract',
      name: 'Web Extract',
      auto: true,
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      candidates: [
        {
          provider: 'openrouter',
          model: 'anthropic/claude-sonnet-4.5',
          reason: 'auto',
          why: 'auxiliary.web_extract is auto: the main model',
          usable: true,
          api_mode: 'chat_completions',
          configured_api_mode: 'chat_completions',
          base_url: OPENROUTER_URL,
          notes: [],
        },
        {
          provider: 'openai',
          model: 'gpt-5.1',
          reason: 'fallback_providers',
          why: 'fallback_providers[0]',
          usable: true,
          api_mode: 'chat_completions',
          configured_api_mode: 'chat_completions',
          base_url: OPENAI_URL,
          notes: [],
        },
      ],
    });
  });

  it('plain status (without --deep) still has one line per slot', async () => {
    await writeConfig(STATUS_CONFIG);
    const lines = (await iris(['status'], STATUS_ENV)).stdout.split('\n');
    expect(lines.slice(0, 12)).toEqual([
      'Main               openrouter · anthropic/claude-sonnet-4.5',
      'Vision             anthropic · claude-haiku-4-5  [no credential (set ANTHROPIC_API_KEY)]',
      'Web Extract        auto → openrouter · anthropic/claude-sonnet-4.5',
      'Compression        openrouter · google/gemini-2.5-flash',
      'Skills Hub         auto → openrouter · anthropic/claude-sonnet-4.5',
      'Approval           auto → openrouter · anthropic/claude-sonnet-4.5',
      'MCP                auto → openrouter · anthropic/claude-sonnet-4.5',
      'Title Gen          auto → openrouter · anthropic/claude-sonnet-4.5',
      'Triage Specifier   auto → openrouter · anthropic/claude-sonnet-4.5',
      'Kanban Decomposer  auto → openrouter · anthropic/claude-sonnet-4.5',
      'Profile Describer  auto → openrouter · anthropic/claude-sonnet-4.5',
      'Curator            auto → openrouter · anthropic/claude-sonnet-4.5',
    ]);
  });
});

describe('iris config show --changed', () => {
  const CONFIG = [
    '# my setup',
    'model:',
    '  provider: openrouter',
    '  default: anthropic/claude-sonnet-4.5',
    'approval_mode: manual', // the default, written out: not a change
    'auxiliary:',
    '  vision:',
    '    provider: openai',
    '    model: gpt-5-mini',
    '    api_key: sk-inline-vision-0123456789abcdef',
    '    timeout: 120', // the default
    '  curator:',
    '    timeout: 900',
    'platforms:',
    '  webhook:',
    '    extra:',
    '      port: 8650',
    'my_extension: { enabled: true }',
    '',
  ].join('\n');

  it('prints only what differs from the defaults, secrets masked', async () => {
    await writeConfig(CONFIG);
    const result = await iris(['config', 'show', '--changed']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'model:',
        '  provider: openrouter',
        '  default: anthropic/claude-sonnet-4.5',
        'auxiliary:',
        '  vision:',
        '    provider: openai',
        '    model: gpt-5-mini',
        '    api_key: sk-…cdef',
        '  curator:',
        '    timeout: 900',
        'platforms:',
        '  webhook:',
        '    extra:',
        '      port: 8650',
        'my_extension:',
        '  enabled: true',
        '',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('0123456789');
  });

  it('--changed --json: the same, as JSON', async () => {
    await writeConfig(CONFIG);
    const result = await iris(['config', 'show', '--changed', '--json']);
    expect(result.code).toBe(0);
    expect(parseJson(result.stdout)).toEqual({
      model: { provider: 'openrouter', default: 'anthropic/claude-sonnet-4.5' },
      auxiliary: { vision: { provider: 'openai', model: 'gpt-5-mini', api_key: 'sk-…cdef' }, curator: { timeout: 900 } },
      platforms: { webhook: { extra: { port: 8650 } } },
      my_extension: { enabled: true },
    });
  });

  it('a fresh install has nothing changed: an empty mapping', async () => {
    expect(await iris(['config', 'show', '--changed'])).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    expect(await iris(['config', 'show', '--changed', '--json'])).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    // The full view is still the default.
    expect(parseYaml((await iris(['config', 'show'])).stdout).approval_mode).toBe('manual');
  });
});
