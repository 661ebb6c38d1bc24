import { chmod, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseJson, parseYaml } from '../helpers/documents.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
});
afterEach(() => removeDir(dir));

const iris = (args: string[], env?: Record<string, string>) => runIris(args, { home, ...(env ? { env } : {}) });
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const configText = () => readFile(join(home, 'config.yaml'), 'utf8');

describe('iris config show', () => {
  it('shows the defaults of a fresh install and creates the home 0700 without writing files', async () => {
    const result = await iris(['config', 'show']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const shown = parseYaml(result.stdout);
    expect(shown.model).toBe('');
    expect(shown.approval_mode).toBe('manual');
    expect(Object.keys(shown?.auxiliary ?? {})).toHaveLength(11);
    expect(shown?.auxiliary?.curator?.timeout).toBe(600);
    expect(shown?.platforms?.webhook?.extra?.port).toBe(8644);
    expect(await modeOf(home)).toBe(0o700);
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('masks every secret in YAML and JSON output', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(
      join(home, 'config.yaml'),
      [
        'auxiliary:',
        '  vision:',
        '    api_key: sk-vision-0123456789abcd',
        'platforms:',
        '  webhook:',
        '    extra:',
        '      secret: whsec-global-secret-value-wxyz',
        '      routes:',
        '        pr:',
        '          secret: short',
        '          deliver_extra: { access_token: ghp_0123456789abcdef }',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const yamlOut = await iris(['config', 'show']);
    const jsonOut = await iris(['config', 'show', '--json']);
    for (const out of [yamlOut.stdout, jsonOut.stdout]) {
      expect(out).not.toContain('0123456789');
      expect(out).not.toContain('global-secret');
      expect(out).not.toContain('short');
    }
    const shown = parseJson(jsonOut.stdout);
    expect(shown?.auxiliary?.vision?.api_key).toBe('sk-…abcd');
    expect(shown?.platforms?.webhook?.extra?.secret).toBe('whs…wxyz');
    expect(shown?.platforms?.webhook?.extra?.routes?.pr?.secret).toBe('****');
    expect(shown?.platforms?.webhook?.extra?.routes?.pr?.deliver_extra?.access_token).toBe('ghp…cdef');
  });

  it('reports invalid values as path: message (allowed: …), uses defaults, exits 0', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(
      join(home, 'config.yaml'),
      'approval_mode: sometimes\nplatforms:\n  webhook:\n    extra:\n      port: high\nnewer_feature: 1\n',
      { mode: 0o600 },
    );
    const result = await iris(['config', 'show', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        `iris: warning: ${home}/config.yaml has 2 invalid settings; each reads as its default ([ignored]: the entry is skipped):`,
        '  approval_mode: "sometimes" is not valid (allowed: manual, smart, off)',
        '  platforms.webhook.extra.port: "high" is not valid (allowed: an integer from 0 to 65535)',
        `iris: warning: ${home}/config.yaml: unknown key newer_feature (kept as written, not used by this version)`,
        '',
      ].join('\n'),
    );
    const shown = parseJson(result.stdout);
    expect(shown.approval_mode).toBe('manual');
    expect(shown?.platforms?.webhook?.extra?.port).toBe(8644);
    expect(shown.newer_feature).toBe(1);
  });

  it('fails with exit 2 and the line number on malformed YAML', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: [gpt\n', { mode: 0o600 });
    const result = await iris(['config', 'show']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^iris: error: ${home}/config\\.yaml: invalid YAML at line \\d+, column \\d+: .+\\n$`));
    expect(result.stderr).not.toContain('    at ');
  });

  it('fails with exit 2 when IRIS_HOME is not a usable directory', async () => {
    const file = join(dir, 'plain-file');
    await writeFile(file, '');
    const result = await runIris(['config', 'show'], { home: file });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `iris: error: cannot use IRIS_HOME ${file}: it is not a directory\n`,
    });
  });

  it('narrows a loose config.yaml mode with a warning', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), "model: ''\n");
    await chmod(join(home, 'config.yaml'), 0o644);
    const result = await iris(['config', 'show']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`iris: warning: narrowed the permissions of ${home}/config.yaml from 0644 to 0600\n`);
    expect(await modeOf(join(home, 'config.yaml'))).toBe(0o600);
  });
});

describe('iris config set and get', () => {
  it('turns model: "" into a mapping and keeps the starter comments', async () => {
    expect((await iris(['config', 'set', 'model.provider', 'openrouter'])).code).toBe(0);
    const result = await iris(['config', 'set', 'model.default', 'anthropic/claude-sonnet-4']);
    expect(result).toEqual({
      code: 0,
      stdout: `model.default = "anthropic/claude-sonnet-4"  (${home}/config.yaml)\n`,
      stderr: '',
    });
    const text = await configText();
    expect(text).toMatch(/^# Iris configuration/);
    expect(parseYaml(text).model).toEqual({ provider: 'openrouter', default: 'anthropic/claude-sonnet-4' });
    expect(await modeOf(join(home, 'config.yaml'))).toBe(0o600);
    expect((await iris(['config', 'get', 'model.provider'])).stdout).toBe('openrouter\n');
    expect(JSON.parse((await iris(['config', 'get', 'model', '--json'])).stdout)).toEqual({
      provider: 'openrouter',
      default: 'anthropic/claude-sonnet-4',
    });
  });

  it('coerces booleans and numbers, and creates nested maps', async () => {
    await iris(['config', 'set', 'platforms.webhook.enabled', 'yes']);
    await iris(['config', 'set', 'platforms.webhook.extra.port', '9000']);
    await iris(['config', 'set', 'experimental.ratio', '0.25', '--force']);
    await iris(['config', 'set', 'experimental.flag', 'OFF', '--force']);
    await iris(['config', 'set', 'experimental.label', 'hello world', '--force']);
    await iris(['config', 'set', 'experimental.forced', '42', '--string', '--force']);
    expect(parse(await configText())).toEqual({
      model: '',
      platforms: { webhook: { enabled: true, extra: { port: 9000 } } },
      experimental: { ratio: 0.25, flag: false, label: 'hello world', forced: '42' },
    });
  });

  it('keeps a number as a string where the schema wants a string', async () => {
    await iris(['config', 'set', 'model.default', '4']);
    expect(parseYaml(await configText()).model).toEqual({ default: '4' });
  });

  it('refuses a key this version does not know (exit 2, with the nearest known key), and writes it with --force', async () => {
    const typo = await iris(['config', 'set', 'model.provder', 'openai']);
    expect(typo).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "iris: error: unknown config key model.provder; did you mean model.provider? (pass --force to write it anyway, e.g. for an extension's key)\n",
    });
    await expect(readFile(join(home, 'config.yaml'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const provider = await iris(['config', 'set', 'auxiliary.vision.provider', 'nope']);
    expect(provider).toMatchObject({
      code: 2,
      stderr: 'iris: error: unknown provider "nope" for auxiliary.vision.provider (providers: auto, openrouter, openai, anthropic, cloud-hosted, custom; pass --force to write it anyway)\n',
    });
    expect((await iris(['config', 'set', 'future.knob', '3'])).code).toBe(2);
    const result = await iris(['config', 'set', 'future.knob', '3', '--force']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `iris: warning: ${home}/config.yaml: unknown key future (kept as written, not used by this version)\n`,
    );
    expect(parseYaml(await configText()).future).toEqual({ knob: 3 });
  });

  it('refuses a list or mapping value with exit 2 and writes nothing', async () => {
    for (const value of ['[a, b]', '{provider: x}']) {
      const result = await iris(['config', 'set', 'fallback_providers', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'iris: error: config set takes scalars; fallback_providers was given a list or mapping (edit config.yaml for lists and mappings)\n',
      );
    }
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to replace a mapping with a scalar', async () => {
    await iris(['config', 'set', 'model.provider', 'openai']);
    const result = await iris(['config', 'set', 'model', 'gpt-5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'iris: error: model holds a mapping or a list; config set takes scalars (set one of its keys, or edit config.yaml)\n',
    );
    expect(parseYaml(await configText()).model).toEqual({ provider: 'openai' });
  });

  it('refuses a value the schema rejects, with exit 2, and keeps the file', async () => {
    await iris(['config', 'set', 'approval_mode', 'smart']);
    const result = await iris(['config', 'set', 'approval_mode', 'sometimes']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'iris: error: approval_mode: "sometimes" is not valid (allowed: manual, smart, off)\n',
    });
    expect(parseYaml(await configText()).approval_mode).toBe('smart');
  });

  it('rejects a malformed dotted key with exit 2', async () => {
    const result = await iris(['config', 'set', 'model..provider', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'iris: error: "model..provider" is not a dotted key (expected something like model.provider)\n',
    );
  });

  it('exits 1 for a key that is not set', async () => {
    expect(await iris(['config', 'get', 'model.provider'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'iris: error: no config key model.provider\n',
    });
  });

  it('refuses to write into a malformed file', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, 'config.yaml'), 'a: [\n', { mode: 0o600 });
    const result = await iris(['config', 'set', 'b', '1']);
    expect(result.code).toBe(2);
    expect(await configText()).toBe('a: [\n');
  });
});

describe('secrets in .env', () => {
  it.each(['OPENROUTER_API_KEY', 'GITHUB_TOKEN', 'WEBHOOK_SECRET', 'CLOUD_HOSTED_API_KEY', 'CLOUD_TENANT_ID'])(
    'writes %s to .env at 0600, never to config.yaml, and never prints the value',
    async (name) => {
      const value = 'sk-test-value-0123456789-tail';
      const result = await iris(['config', 'set', name, value]);
      expect(result).toEqual({
        code: 0,
        stdout: `${name} saved to ${home}/.env (value hidden; .env, not config.yaml, holds secrets)\n`,
        stderr: '',
      });
      expect(await readFile(join(home, '.env'), 'utf8')).toBe(`${name}=${value}\n`);
      expect(await modeOf(join(home, '.env'))).toBe(0o600);
      await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
      const got = await iris(['config', 'get', name]);
      expect(got).toEqual({ code: 0, stdout: 'sk-…tail  (from .env)\n', stderr: '' });
    },
  );

  it('lets the process environment win over .env, and says so', async () => {
    await iris(['config', 'set', 'OPENAI_API_KEY', 'from-file-0123456789']);
    const got = await iris(['config', 'get', 'OPENAI_API_KEY', '--json'], { OPENAI_API_KEY: 'from-shell-abcdefghij' });
    expect(JSON.parse(got.stdout)).toEqual({ key: 'OPENAI_API_KEY', set: true, source: 'environment', value: 'fro…ghij' });
    const set = await iris(['config', 'set', 'OPENAI_API_KEY', 'another-0123456789'], { OPENAI_API_KEY: 'from-shell-abcdefghij' });
    expect(set.stderr).toBe(
      "iris: warning: OPENAI_API_KEY is also set in this shell's environment, which takes precedence over .env\n",
    );
  });

  it('updates a key in place and keeps the other lines of .env', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, '.env'), '# my keys\nA_TOKEN=old\nOTHER=1\n', { mode: 0o600 });
    await iris(['config', 'set', 'A_TOKEN', 'new value']);
    expect(await readFile(join(home, '.env'), 'utf8')).toBe('# my keys\nA_TOKEN="new value"\nOTHER=1\n');
  });
});

describe('concurrent writers', () => {
  it('two processes writing 15 keys each lose nothing', async () => {
    const writer = async (name: string) => {
      for (let i = 0; i < 15; i++) {
        const result = await iris(['config', 'set', `${name}.k${i}`, String(i), '--force']);
        expect(result.code).toBe(0);
      }
    };
    await Promise.all([writer('alpha'), writer('beta')]);
    const written = parseYaml(await configText());
    const expected = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i]));
    expect(written.alpha).toEqual(expected);
    expect(written.beta).toEqual(expected);
  }, 60_000);
});

describe('files that need care', () => {
  it('updates a symlinked config.yaml at its target and keeps the link', async () => {
    const { symlink, lstat } = await import('node:fs/promises');
    await mkdir(home, { mode: 0o700 });
    const target = join(dir, 'dotfiles-config.yaml');
    await writeFile(target, '# mine\nmodel: { provider: openai }\n', { mode: 0o600 });
    await symlink(target, join(home, 'config.yaml'));
    expect((await iris(['config', 'set', 'model.default', 'gpt-5'])).code).toBe(0);
    expect((await lstat(join(home, 'config.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('# mine\nmodel: { provider: openai, default: gpt-5 }\n');
  });

  it('refuses an alias bomb with exit 2 naming the file', async () => {
    await mkdir(home, { mode: 0o700 });
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      lines.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    await writeFile(join(home, 'config.yaml'), `${lines.join('\n')}\n`, { mode: 0o600 });
    const result = await iris(['config', 'show']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^iris: error: ${home}/config\\.yaml: cannot read the YAML: .+\\n$`));
  });

  it('redacts credentials inside non-secret values', async () => {
    await mkdir(home, { mode: 0o700 });
    await writeFile(
      join(home, 'config.yaml'),
      'model:\n  provider: custom\n  base_url: https://user:hunter2hunter2@llm.example/v1?api-key=supersecretvalue123\n',
      { mode: 0o600 },
    );
    const shown = (await iris(['config', 'show'])).stdout;
    expect(shown).toContain('base_url: https://[redacted]@llm.example/v1?api-key=[redacted]');
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('supersecretvalue123');
    expect((await iris(['config', 'get', 'model.base_url'])).stdout).toBe('https://[redacted]@llm.example/v1?api-key=[redacted]\n');
  });

  it('validates a key_env alias like key_env itself', async () => {
    const bad = await iris(['config', 'set', 'model.api_key_env', 'bad name']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('iris: error: model.key_env: "bad name" is not valid (allowed: a variable name (letters, digits and _))\n');
    const good = await iris(['config', 'set', 'model.api_key_env', 'TEAM_KEY']);
    expect(good).toMatchObject({ code: 0, stderr: '' });
    expect((await iris(['config', 'get', 'model.key_env'])).stdout).toBe('TEAM_KEY\n');
  });

  it('refuses a lower-case secret name instead of writing it to config.yaml', async () => {
    const result = await iris(['config', 'set', 'openrouter_api_key', 'sk-or-secret-0123456789']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "iris: error: openrouter_api_key looks like a secret's variable name; secrets go to .env under the upper-case name: iris config set OPENROUTER_API_KEY …\n",
    );
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a shared (sticky, world-writable) IRIS_HOME instead of chmodding it', async () => {
    await mkdir(home);
    await chmod(home, 0o1777);
    const result = await iris(['config', 'show']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `iris: error: cannot use IRIS_HOME ${home}: it is shared (mode 1777); point IRIS_HOME at a private folder\n`,
    });
    expect((await stat(home)).mode & 0o7777).toBe(0o1777);
  });
});
