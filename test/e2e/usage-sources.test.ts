// Every call counts under the source of the run it served: a webhook run's main call and its
// title call under `webhook:<route>`, a CLI chat's under `cli`; `iris usage --by source --json`
// after real runs (the gateway as a subprocess, `iris chat -q`) against the fake model. And a
// deleted session's calls stay in the ledger.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
const running: GatewayProcess[] = [];

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
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

const SECRET = 'pr-secret-0123456789abcdef';
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const iris = (args: string[]) => runIris(args, { home, env: env() });

async function usageBy(by: string): Promise<unknown[]> {
  const result = await iris(['usage', '--by', by, '--json']);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as unknown[];
}

describe('iris usage --by source after real runs', { timeout: 60_000 }, () => {
  it('counts a webhook run (its title call too) under webhook:<route> and a CLI chat under cli, and keeps them after the sessions are deleted', async () => {
    await writeFile(
      join(home, 'config.yaml'),
      `model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        pr-review:\n          secret: ${SECRET}\n          events: [pull_request]\n`,
      { mode: 0o600 },
    );
    fake.script(
      'main-m',
      { kind: 'text', deltas: ['Looks fine.'], usage: { input: 100, output: 10 } },
      { kind: 'text', deltas: ['PR review'], usage: { input: 20, output: 2 } },
      { kind: 'text', deltas: ['Hello.'], usage: { input: 300, output: 30, cached: 5 } },
      { kind: 'text', deltas: ['Greeting'], usage: { input: 40, output: 4 } },
    );
    const gateway = await startGatewayProcess(home, env());
    running.push(gateway);
    const event = { action: 'opened', number: 7, pull_request: { title: 'Tidy' }, repository: { full_name: 'octo/hello' } };
    expect((await postEvent(gateway.url, 'pr-review', event, { secret: SECRET, event: 'pull_request' })).status).toBe(202);
    // Both calls of the run (the answer, then the title) are in the ledger.
    await waitFor(async () => (((await usageBy('source'))[0] as { calls?: number } | undefined)?.calls === 2 ? true : undefined), 15_000, 'the webhook run');
    await gateway.stop('SIGTERM');

    const chat = await iris(['chat', '-q', 'hi']);
    expect(chat.code).toBe(0);
    const served = ['openai · main-m'];
    const bySource = [
      { key: 'cli', source: 'cli', calls: 2, input_tokens: 340, output_tokens: 34, cached_tokens: 5, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 2, served },
      { key: 'webhook:pr-review', source: 'webhook:pr-review', calls: 2, input_tokens: 120, output_tokens: 12, cached_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 2, served },
    ];
    expect(await usageBy('source')).toEqual(bySource);
    expect(await usageBy('task')).toEqual([
      { key: 'main', task: 'main', calls: 2, input_tokens: 400, output_tokens: 40, cached_tokens: 5, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 2, served },
      { key: 'title_generation', task: 'title_generation', calls: 2, input_tokens: 60, output_tokens: 6, cached_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 2, served },
    ]);

    // Deleting every session leaves the ledger as it was.
    const deleted = await iris(['sessions', 'prune', '--older-than', '0s', '--yes']);
    expect(deleted.code).toBe(0);
    expect(JSON.parse((await iris(['sessions', 'list', '--json'])).stdout)).toEqual([]);
    expect(await usageBy('source')).toEqual(bySource);
  });

  it('counts the tokens an Anthropic model wrote to its prompt cache apart from those it read', async () => {
    await writeFile(join(home, 'config.yaml'), 'model: { provider: anthropic, default: claude-m, api_mode: anthropic_messages }\n', { mode: 0o600 });
    fake.script(
      'claude-m',
      { kind: 'text', deltas: ['Cached.'], usage: { input: 1_000, output: 20, cached: 200, cacheWrite: 700 } },
      { kind: 'text', deltas: ['Caching'], usage: { input: 50, output: 3 } },
    );
    const chat = await runIris(['chat', '-q', 'hi'], { home, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url } });
    expect(chat).toMatchObject({ code: 0, stdout: 'Cached.\n' });
    const served = ['anthropic · claude-m'];
    expect(await usageBy('task')).toEqual([
      { key: 'main', task: 'main', calls: 1, input_tokens: 1_000, output_tokens: 20, cached_tokens: 200, cache_write_tokens: 700, cost_usd: null, unpriced_calls: 1, served },
      { key: 'title_generation', task: 'title_generation', calls: 1, input_tokens: 50, output_tokens: 3, cached_tokens: 0, cache_write_tokens: 0, cost_usd: null, unpriced_calls: 1, served },
    ]);
    const table = await iris(['usage']);
    expect(table.stdout).toBe(
      ['model                 calls  input  output  cached  cache write  cost', 'anthropic · claude-m      2  1,050      23     200          700  unpriced', ''].join('\n'),
    );
  });
});
