// A custom OpenAI-compatible endpoint in the wizard, as a person sees it: the key's variable
// (optional), the endpoint's own model list to pick from, no word about cloud deployments, and a
// clear warning when the endpoint does not answer.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { IRIS_BIN, makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { KEYS, startPty, type PtySession } from '../helpers/pty.js';

let dir: string;
let home: string;
let session: PtySession | undefined;
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  if (session && session.child.exitCode === null) session.child.kill('SIGKILL');
  session = undefined;
  await removeDir(dir);
});

describe('iris setup with a custom endpoint', () => {
  it('asks for the key variable and the key, probes /models with it, and offers the returned ids', async () => {
    fake.setModels(['llama-3.3-70b', 'qwen-2.5-coder']);
    session = startPty([process.execPath, IRIS_BIN, 'setup', '--provider', 'custom', '--base-url', `${fake.url}/v1`], { IRIS_HOME: home });
    await session.waitFor("The variable that holds the endpoint's key (empty: the endpoint needs no key)");
    session.type(`LLAMA_KEY${KEYS.enter}`);
    await session.waitFor('LLAMA_KEY (stored in $IRIS_HOME/.env, never in config.yaml)');
    session.type(`llama-secret-0123456789${KEYS.enter}`);
    await session.waitFor("The model, by the endpoint's own id (type to filter, or type any id)");
    // The hint once: the question used to carry its own copy of the picker's.
    expect(session.screen()).not.toMatch(/type to filter[^\n]*type to filter/);
    session.type('qwen');
    await session.waitFor('qwen-2.5-coder');
    session.type(KEYS.enter);
    await session.waitFor('Enable the webhook gateway');
    session.type(KEYS.enter);
    expect(await session.exited).toBe(0);
    const screen = session.screen();
    expect(screen).not.toMatch(/deployment/i);
    expect(screen).toContain('api mode: chat_completions');
    const models = fake.requests.filter((r) => r.path === '/v1/models');
    expect(models.map((r) => r.headers.authorization)).toEqual(['Bearer llama-secret-0123456789']);
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown> };
    expect(config.model).toMatchObject({ provider: 'custom', default: 'qwen-2.5-coder', base_url: `${fake.url}/v1`, api_mode: 'chat_completions', key_env: 'LLAMA_KEY' });
    expect(await readFile(join(home, '.env'), 'utf8')).toBe('LLAMA_KEY=llama-secret-0123456789\n');
  });

  it('an empty variable means no key: nothing is stored and the probe goes without one', async () => {
    fake.setModels(['local-model']);
    session = startPty([process.execPath, IRIS_BIN, 'setup', '--provider', 'custom', '--base-url', `${fake.url}/v1`], { IRIS_HOME: home });
    await session.waitFor("The variable that holds the endpoint's key");
    session.type(KEYS.enter);
    await session.waitFor("The model, by the endpoint's own id (");
    session.type(KEYS.enter);
    await session.waitFor('Enable the webhook gateway');
    session.type(KEYS.enter);
    expect(await session.exited).toBe(0);
    expect(fake.requests.filter((r) => r.path === '/v1/models').map((r) => r.headers.authorization)).toEqual([undefined]);
    const config = parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown> };
    expect(config.model).toMatchObject({ provider: 'custom', default: 'local-model' });
    expect(config.model).not.toHaveProperty('key_env');
  });

  it('warns clearly when the endpoint answers neither probe', async () => {
    const result = await runIris(['setup', '--provider', 'custom', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--yes'], { home });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toContain(
      'warning: http://127.0.0.1:9/v1 answered neither probe (see above): check that the server is running and that the URL is where its API starts (often …/v1)',
    );
    expect(result.stdout + result.stderr).not.toMatch(/deployment/i);
  });
});
