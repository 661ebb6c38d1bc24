// Custom endpoints through `iris model set` / `iris model aux set`: --base-url and --key-env, a
// slot that keeps its own endpoint, and a main switch that says when a slot loses its endpoint.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { parseJson } from '../helpers/documents.js';

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(() => removeDir(dir));

const iris = (...args: string[]) => runIris(args, { home, env: { OPENAI_API_KEY: 'sk-test-0123456789abcdef' } });
const config = async () => parse(await readFile(join(home, 'config.yaml'), 'utf8')) as { model: Record<string, unknown>; auxiliary?: Record<string, Record<string, unknown>> };

describe('custom endpoints from iris model', () => {
  it('model set takes --base-url and --key-env', async () => {
    const result = await iris('model', 'set', 'custom', 'llama-3.3-70b', '--base-url', 'http://127.0.0.1:8000/v1', '--key-env', 'LLAMA_KEY');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('main: not configured → custom · llama-3.3-70b\n');
    expect((await config()).model).toEqual({ provider: 'custom', default: 'llama-3.3-70b', base_url: 'http://127.0.0.1:8000/v1', key_env: 'LLAMA_KEY' });
  });

  it('model aux set gives a slot its own endpoint, which a main switch leaves alone', async () => {
    expect((await iris('model', 'set', 'openai', 'gpt-5')).code).toBe(0);
    const result = await iris('model', 'aux', 'set', 'vision', 'custom', 'llava', '--base-url', 'http://127.0.0.1:8001/v1', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ scope: 'auxiliary', task: 'vision', changes: [{ task: 'vision', provider: 'custom', model: 'llava', cleared: [] }] });
    expect((await config()).auxiliary?.vision).toEqual({ provider: 'custom', model: 'llava', base_url: 'http://127.0.0.1:8001/v1' });
    const switched = await iris('model', 'set', 'anthropic', 'claude-sonnet-4-5');
    expect(switched.stdout).toContain('note: vision stays on custom · llava (pinned)\n');
    expect((await config()).auxiliary?.vision).toEqual({ provider: 'custom', model: 'llava', base_url: 'http://127.0.0.1:8001/v1' });
  });

  it('a main switch says when a slot that used the main endpoint becomes unusable', async () => {
    await iris('model', 'set', 'custom', 'llama', '--base-url', 'http://127.0.0.1:8000/v1');
    await iris('model', 'aux', 'set', 'vision', 'custom', 'llava');
    const result = await iris('model', 'set', 'openai', 'gpt-5');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "warning: vision becomes unusable: custom has no endpoint URL (set base_url); give it its own endpoint (iris model aux set vision custom llava --base-url <url>) or put it back on auto (iris model aux set vision auto '')\n",
    );
    expect(result.stdout).not.toContain('stays on custom');
    const json = await iris('model', 'set', 'openai', 'gpt-5', '--json');
    expect(parseJson(json.stdout).stale_aux).toEqual([{ task: 'vision', provider: 'custom', model: 'llava', unusable: 'no endpoint URL (set base_url)' }]);
  });

  it('refuses a base URL that is not http(s), a bad variable name, and an endpoint for an auto slot', async () => {
    await writeFile(join(home, 'config.yaml'), '# mine\n', { mode: 0o600 });
    expect(await iris('model', 'set', 'custom', 'm', '--base-url', 'localhost:8000')).toMatchObject({ code: 2, stderr: 'iris: error: the base URL must be an http(s) URL (got "localhost:8000")\n' });
    expect(await iris('model', 'set', 'custom', 'm', '--key-env', 'my key')).toMatchObject({ code: 2, stderr: 'iris: error: the key variable must be a variable name (got "my key")\n' });
    expect(await iris('model', 'aux', 'set', 'vision', 'auto', '', '--base-url', 'http://x/v1')).toMatchObject({
      code: 2,
      stderr: 'iris: error: an auto slot follows the main model and its endpoint; name a provider to give the slot its own base URL or key variable\n',
    });
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe('# mine\n');
  });
});
