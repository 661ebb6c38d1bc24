// One U+0000 must poison nothing, on SQLite and on PostgreSQL (whose text refuses it): in a
// webhook payload field (rendered into the prompt and echoed in the answer), in a PR title, in a
// Telegram DM from a stranger and in an SMS body, each is stored and answered, and the next event
// on the same route, PR, chat and platform is answered too. 200 innocent webhooks sent at the same
// moment as a poisoned one all get 202 (a batched insert that fails is retried one by one).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram-api.js';
import { postInboundSms, startFakeTwilio, type FakeTwilio } from '../fakes/twilio-api.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN } from '../fakes/twilio-api-kit.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, schemaUrl } from '../helpers/postgres.js';
import { writeGhPulls } from '../helpers/pr-diff-fakes.js';
import { issueComment, pullRequest, REPO, sha } from '../helpers/pr-review.js';
import { answerLines, SECRET } from './fault-kit.js';

const NUL = '\u0000';
const TOKEN = '123456789:AAF-fake_token_for_tests_0123456789ab';
const ALICE = 111_111;
const STRANGER = 333_333;
const SID = TEST_ACCOUNT_SID;
const TWILIO_TOKEN = TEST_AUTH_TOKEN;
const BOT_NUMBER = '+15550000000';
const SMS_USER = '+15551234567';
const PUBLIC_URL = 'https://iris.example.com/platforms/sms';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  // Every answer repeats what it was asked (U+0000 included), so the answer carries it too.
  upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
});
afterAll(() => upstream.close());

type Row = { id: number; delivery_id: string; state: string; reason: string | null };

describe.each([{ backend: 'sqlite' }, { backend: 'postgres' }])('U+0000 on $backend', ({ backend }) => {
  let dir: string;
  let home: string;
  let schema: string | undefined;
  let telegram: FakeTelegram;
  let twilio: FakeTwilio;
  let gateway: GatewayProcess;
  const ghRecord = () => join(dir, 'gh.jsonl');

  beforeAll(async () => {
    dir = await makeTempDir('iris-fault-poison-');
    home = join(dir, 'home');
    await mkdir(home, { mode: 0o700 });
    await mkdir(join(dir, 'bin'));
    await symlink(join(REPO_ROOT, 'test', 'fakes', 'fake-gh.mjs'), join(dir, 'bin', 'gh'));
    // A review reads the PR from the code host first: PR #7, its title poisoned there too.
    await writeGhPulls(join(dir, 'pulls.json'), {
      pulls: { [`${REPO}#7`]: { title: `Fix${NUL} the parser`, head: { ref: 'fix', sha: sha('a') }, base: { ref: 'main', sha: sha('0') }, files: [{ filename: 'src/parse.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' }] } },
      contents: { [REPO]: { main: {} } },
    });
    telegram = await startFakeTelegram({ token: TOKEN });
    twilio = await startFakeTwilio({ accountSid: SID, authToken: TWILIO_TOKEN });
    let store = '';
    if (backend === 'postgres') {
      schema = freshSchemaName('iris_poison');
      await adminQuery(`CREATE SCHEMA ${schema}`);
      store = `store:\n  url: "${schemaUrl(schema)}"\n`;
    }
    await writeFile(
      join(home, 'config.yaml'),
      `model:\n  provider: openai\n  default: main-m\n${store}platforms:\n` +
        `  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      rate_limit: 100000\n      concurrency: 8\n      routes:\n` +
        `        plain:\n          secret: ${SECRET}\n          prompt: "Look at {title} in {repository.full_name}"\n          deliver: log\n` +
        `        pr:\n          secret: ${SECRET}\n          events: [pull_request, issue_comment]\n          session: per_pr\n          commands: true\n          coalesce_seconds: 0\n` +
        `          prompt: "Review pull request #{number}: {pull_request.title}"\n          deliver: forge_comment\n          deliver_extra:\n            mode: update\n` +
        `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 1\n      allowed_users: ["${ALICE}"]\n` +
        `  sms:\n    enabled: true\n    extra:\n      api_base: ${twilio.url}\n      from: "${BOT_NUMBER}"\n      public_url: ${PUBLIC_URL}\n      allowed_users: ["${SMS_USER}"]\n`,
      { mode: 0o600 },
    );
    gateway = await startGatewayProcess(
      home,
      {
        OPENAI_API_KEY: 'test-key-0123456789',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
        FAKE_GH_RECORD: ghRecord(),
        FAKE_GH_PULLS: join(dir, 'pulls.json'),
        TELEGRAM_BOT_TOKEN: TOKEN,
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      },
      30_000,
    );
  });
  afterAll(async () => {
    await gateway?.stop('SIGTERM');
    await telegram?.close();
    await twilio?.close();
    if (schema) await dropSchema(schema).catch(() => undefined);
    await removeDir(dir);
  });

  const deliveries = async (): Promise<Row[]> => JSON.parse((await runIris(['webhook', 'deliveries', '--json', '--limit', '10000'], { home })).stdout || '[]') as Row[];
  const ended = (ids: readonly string[]) => async () => {
    const rows = await deliveries();
    const mine = rows.filter((row) => ids.includes(row.delivery_id));
    return mine.length === ids.length && mine.every((row) => row.state === 'delivered' || row.state === 'failed') ? mine : undefined;
  };

  it('a payload field: stored and answered, the next event of the route answered; 200 innocent webhooks beside a poisoned one all 202', async () => {
    const poisoned = await postEvent(gateway.url, 'plain', { title: `a${NUL}b`, repository: { full_name: 'octo/x' } }, { secret: SECRET, delivery: `${backend}-poison` });
    expect(poisoned.status).toBe(202);
    const next = await postEvent(gateway.url, 'plain', { title: 'fine', repository: { full_name: 'octo/x' } }, { secret: SECRET, delivery: `${backend}-next` });
    expect(next.status).toBe(202);
    const crowd = await Promise.all([
      postEvent(gateway.url, 'plain', { title: 'bad', repository: { full_name: `octo/${NUL}` } }, { secret: SECRET, delivery: `${backend}-crowd-poison` }),
      ...Array.from({ length: 200 }, (_, i) => postEvent(gateway.url, 'plain', { title: `ok ${i}`, repository: { full_name: 'octo/x' } }, { secret: SECRET, delivery: `${backend}-crowd-${i}` })),
    ]);
    expect(crowd.filter((answer) => answer.status !== 202).map((answer) => answer.status)).toEqual([]);
    const ids = [`${backend}-poison`, `${backend}-next`, `${backend}-crowd-poison`, ...Array.from({ length: 200 }, (_, i) => `${backend}-crowd-${i}`)];
    const rows = await waitFor(ended(ids), 60_000, 'every event to be answered');
    expect(rows.filter((row) => row.state !== 'delivered').map((row) => `${row.delivery_id}: ${row.reason}`)).toEqual([]);
    const lines = await answerLines(home);
    expect(ids.filter((id) => lines.get(id) !== 1)).toEqual([]);
  });

  it('a PR title: reviewed, and the next event of that PR (an /ask) answered', async () => {
    const opened = await postEvent(gateway.url, 'pr', pullRequest('opened', sha('a'), 7, { pull_request: { number: 7, title: `Fix${NUL} the parser`, user: { login: 'mona' }, head: { ref: 'fix', sha: sha('a') }, base: { ref: 'main' } } }), {
      secret: SECRET,
      event: 'pull_request',
      delivery: `${backend}-pr-1`,
    });
    expect(opened.status).toBe(202);
    const ask = await postEvent(gateway.url, 'pr', issueComment('/ask what changed?', 'mona', 'OWNER', 7), { secret: SECRET, event: 'issue_comment', delivery: `${backend}-pr-2` });
    expect(ask.status).toBe(202);
    const rows = await waitFor(ended([`${backend}-pr-1`, `${backend}-pr-2`]), 60_000, 'the review and the /ask to be answered');
    expect(rows.map((row) => `${row.delivery_id}: ${row.state} ${row.reason ?? ''}`.trim()).sort()).toEqual([`${backend}-pr-1: delivered`, `${backend}-pr-2: delivered`]);
  });

  it('a Telegram DM from a stranger: stored (a pairing code sent), and an allowed user is answered next', async () => {
    telegram.pushMessage({ chatId: STRANGER, userId: STRANGER, text: `let me in${NUL}` });
    telegram.pushMessage({ chatId: ALICE, userId: ALICE, text: 'hello there' });
    await telegram.waitFor(() => telegram.sent.some((m) => m.chat_id === String(ALICE)) && telegram.sent.some((m) => m.chat_id === String(STRANGER)), 30_000, 'the stranger\'s pairing code and Alice\'s answer');
    expect(telegram.sent.find((m) => m.chat_id === String(ALICE))?.text).toContain('hello there');
    // The next message of the stranger's chat is handled too (no second code within the hour, no run).
    telegram.pushMessage({ chatId: ALICE, userId: ALICE, text: `and${NUL} again` });
    await telegram.waitFor(() => telegram.sent.filter((m) => m.chat_id === String(ALICE)).length >= 2, 30_000, 'Alice\'s second answer');
    expect(telegram.sent.filter((m) => m.chat_id === String(ALICE))[1]?.text).toContain(`and${NUL} again`);
  });

  it('an SMS body: stored and answered, and the next SMS answered', async () => {
    const sms = (body: string, n: number) =>
      postInboundSms({ url: `${gateway.url}/platforms/sms`, signatureUrl: PUBLIC_URL, authToken: TWILIO_TOKEN, accountSid: SID, from: SMS_USER, to: BOT_NUMBER, body, messageSid: `SM${backend}${String(n).padStart(20, '0')}` });
    expect((await sms(`is it${NUL} green?`, 1)).status).toBe(200);
    expect((await sms('and now?', 2)).status).toBe(200);
    const sent = await twilio.waitForSent(2, 30_000);
    expect(sent.map((m) => m.body)).toEqual([expect.stringContaining('green?'), expect.stringContaining('and now?')]);
  });
});
