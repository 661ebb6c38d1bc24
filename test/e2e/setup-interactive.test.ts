// The setup wizard as a person sees it: bin/iris on a real pseudo-terminal (util-linux `script`),
// answering @clack/prompts questions with keystrokes.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { IRIS_BIN, makeTempDir, removeDir } from '../helpers/iris.js';
import { KEYS, startPty, type PtySession } from '../helpers/pty.js';

let dir: string;
let home: string;
let session: PtySession | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  if (session && session.child.exitCode === null) session.child.kill('SIGKILL');
  session = undefined;
  await removeDir(dir);
});

const wizard = (env: Record<string, string> = {}) => startPty([process.execPath, IRIS_BIN, 'setup'], { IRIS_HOME: home, ...env });

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

describe('iris setup on a terminal', () => {
  it('walks provider → key → model (filtered) → webhook, and writes the mapping and the key', async () => {
    session = wizard();
    await session.waitFor('Which provider serves the main model?');
    session.type(KEYS.down); // openrouter → openai
    session.type(KEYS.enter);
    await session.waitFor('OPENAI_API_KEY (stored in $IRIS_HOME/.env, never in config.yaml)');
    session.type('sk-typed-0123456789abcdef');
    session.type(KEYS.enter);
    await session.waitFor('The main model (type to filter');
    session.type('mini');
    await session.waitFor('gpt-5-mini');
    session.type(KEYS.enter);
    await session.waitFor('Enable the webhook gateway');
    session.type(KEYS.enter); // the default: no
    expect(await session.exited).toBe(0);
    expect(session.screen()).toContain('main model: openai · gpt-5-mini');
    expect(session.screen()).not.toContain('sk-typed-0123456789abcdef');
    // The wizard's frame: an opening line, and a closing one after the summary.
    expect(session.screen()).toMatch(/┌ {2}iris setup/);
    expect(session.screen()).toMatch(/main model: openai · gpt-5-mini[\s\S]*└ {2}setup done/);
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: unknown };
    expect(config.model).toEqual({ provider: 'openai', default: 'gpt-5-mini', base_url: '', context_length: 400000 });
    expect(await readFile(join(home, '.env'), 'utf8')).toBe('OPENAI_API_KEY=sk-typed-0123456789abcdef\n');
  });

  it('a free-text model id is accepted when it is not in the list', async () => {
    session = wizard();
    await session.waitFor('Which provider serves the main model?');
    session.type(KEYS.enter); // openrouter
    await session.waitFor('OPENROUTER_API_KEY');
    session.type(`sk-or-0123456789abcdef${KEYS.enter}`);
    await session.waitFor('The main model');
    session.type('acme/brand-new-model');
    await session.waitFor('use "acme/brand-new-model"');
    session.type(KEYS.enter);
    await session.waitFor('Enable the webhook gateway');
    session.type(KEYS.enter);
    expect(await session.exited).toBe(0);
    expect((parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: { default: string } }).model.default).toBe('acme/brand-new-model');
  });

  it('Ctrl-C at a question writes nothing and exits 1', async () => {
    session = wizard();
    await session.waitFor('Which provider serves the main model?');
    session.type(KEYS.ctrlC);
    expect(await session.exited).toBe(1);
    expect(session.screen()).toContain('setup cancelled; nothing was written');
    await expect(stat(join(home, 'config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('cloud-hosted: the /models probe prefills the picker with the deployment ids', async () => {
    fake.setModels(['prod-gpt-4o', 'dev-o3-mini']);
    session = wizard({ CLOUD_HOSTED_API_KEY: 'hosted-0123456789abcdef' });
    await session.waitFor('Which provider serves the main model?');
    session.type(KEYS.down + KEYS.down + KEYS.down + KEYS.enter); // cloud-hosted
    await session.waitFor('How does Iris authenticate to the endpoint?');
    session.type(KEYS.enter); // API key
    await session.waitFor('the endpoint URL');
    session.type(`${fake.url}/openai/v1${KEYS.enter}`);
    await session.waitFor('CLOUD_HOSTED_API_KEY is set. Replace it?');
    session.type(KEYS.enter); // no
    await session.waitFor('dev-o3-mini');
    expect(session.screen()).toContain('prod-gpt-4o');
    session.type('dev');
    await session.waitFor(/dev-o3-mini/);
    session.type(KEYS.enter);
    await session.waitFor('Enable the webhook gateway');
    session.type(KEYS.enter);
    expect(await session.exited).toBe(0);
    const model = (parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown> }).model;
    expect(model).toMatchObject({ provider: 'cloud-hosted', default: 'dev-o3-mini', api_mode: 'chat_completions', base_url: `${fake.url}/openai/v1` });
  });
});

describe('iris model on a terminal', () => {
  it('switches the main model with the picker, asking for the key the new provider needs', async () => {
    await writeFile(join(home, 'config.yaml'), '# mine\nmodel:\n  provider: openai\n  default: gpt-5\n', { mode: 0o600 });
    session = startPty([process.execPath, IRIS_BIN, 'model'], { IRIS_HOME: home, OPENAI_API_KEY: 'sk-0123456789abcdef' });
    await session.waitFor('Which provider serves the main model?');
    session.type(KEYS.down + KEYS.enter); // from openai (the current one) to anthropic
    await session.waitFor('ANTHROPIC_API_KEY (stored in $IRIS_HOME/.env');
    session.type(`sk-ant-0123456789abcdef${KEYS.enter}`);
    await session.waitFor('The main model');
    session.type('haiku');
    await session.waitFor('claude-haiku-4-5');
    session.type(KEYS.enter);
    expect(await session.exited).toBe(0);
    const text = await readFile(join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# mine');
    expect((parse(text) as { model: Record<string, unknown> }).model).toMatchObject({ provider: 'anthropic', default: 'claude-haiku-4-5', base_url: '' });
    expect(await readFile(join(home, '.env'), 'utf8')).toBe('ANTHROPIC_API_KEY=sk-ant-0123456789abcdef\n');
  });
});
