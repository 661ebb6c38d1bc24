// `iris webhook test <route>` on the README's own route (docs: README "The webhook gateway"): the
// realistic pull_request sample fills its prompt and deliver_extra, so the event runs and is
// delivered, and the output says which sample went and how to send another payload.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let binDir: string;
let ghRecord: string;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  binDir = join(dir, 'bin');
  ghRecord = join(dir, 'gh.jsonl');
  await mkdir(home, { mode: 0o700 });
  await mkdir(binDir);
  await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(binDir, 'gh'));
  await writeFile(
    join(home, 'config.yaml'),
    'model:\n  provider: openai\n  default: main-m\nplatforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n',
    { mode: 0o600 },
  );
});
afterEach(async () => {
  await gateway?.stop('SIGKILL');
  gateway = undefined;
  await removeDir(dir);
});

type Row = { state: string; reason: string | null };

describe('iris webhook test on the README route', () => {
  it('sends a pull_request opened sample that runs and is delivered to the sample PR', async () => {
    // The README's commands, word for word.
    const subscribed = await runIris(
      ['webhook', 'subscribe', 'github-pr', '--events', 'pull_request', '--deliver', 'forge_comment', '--deliver-extra', 'repo={repository.full_name}', '--deliver-extra', 'pr_number={number}', '--prompt', 'Review PR #{number} in {repository.full_name}: {pull_request.title}'],
      { home },
    );
    expect(subscribed.code).toBe(0);
    gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1`, PATH: `${binDir}:${process.env.PATH ?? ''}`, FAKE_GH_RECORD: ghRecord });
    fake.script('main-m', { kind: 'text', deltas: ['Looks good.'] }, { kind: 'text', deltas: ['Title'] });

    const tested = await runIris(['webhook', 'test', 'github-pr'], { home });
    expect(tested.code).toBe(0);
    const lines = tested.stdout.split('\n');
    expect(lines[0]).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/webhooks\/github-pr \(event pull_request, delivery test-[0-9a-f-]{36}\)$/);
    expect(lines[1]).toMatch(/^202 /);
    expect(lines.slice(2)).toEqual(["sent a GitHub pull_request (opened) sample; send your own with --payload '<json>' (and --event <name>), then see iris webhook deliveries", '']);

    const row = await waitFor(async () => {
      const [first] = JSON.parse((await runIris(['webhook', 'deliveries', '--json'], { home })).stdout) as Row[];
      return first && (first.state === 'delivered' || first.state === 'failed') ? first : undefined;
    }, 15_000, 'the delivery');
    expect(row).toMatchObject({ state: 'delivered', reason: null });
    const prompt = JSON.stringify(fake.requests.map((r) => r.rawBody));
    expect(prompt).toContain('Review PR #7 in example/iris-webhook-test: Add a retry to the upload step');
    const posted = (await readFile(`${ghRecord}.comments.jsonl`, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { repo: string; number: number });
    expect(posted).toEqual([expect.objectContaining({ repo: 'example/iris-webhook-test', number: 7 })]);
  }, 40_000);

  it('--json names the sample; with --payload there is none', async () => {
    await runIris(['webhook', 'subscribe', 'ci', '--events', 'push'], { home });
    gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
    fake.script('main-m', { kind: 'text', deltas: ['ok'] }, { kind: 'text', deltas: ['Title'] }, { kind: 'text', deltas: ['ok'] }, { kind: 'text', deltas: ['Title'] });
    const sample = JSON.parse((await runIris(['webhook', 'test', 'ci', '--json'], { home })).stdout) as Record<string, unknown>;
    expect(sample).toMatchObject({ status: 202, event: 'push', sample: 'a GitHub push (to main) sample' });
    const given = JSON.parse((await runIris(['webhook', 'test', 'ci', '--payload', '{"ref":"main"}', '--json'], { home })).stdout) as Record<string, unknown>;
    expect(given).toMatchObject({ status: 202, event: 'push', sample: null });
  }, 30_000);
});
