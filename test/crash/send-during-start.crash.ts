// Found with the platform crash harness: `iris send` with no gateway running sends the message
// itself, and while its sendMessage is in flight the row is `sending`. A gateway that started just
// then used to take every `sending` row for one a dead process left (outbox recovery at start) and
// send it again: twice, with no crash at all. Rows now record their claimer (its pid), and only a
// dead claimer's rows are put back.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startGatewayProcess, waitFor } from '../helpers/gateway.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';
import { outboxRows, writePlatformConfig } from '../helpers/platforms.js';

const TOKEN = '4242:send-during-start';
let upstream: FakeUpstream;
let telegram: FakeTelegram;
let dir: string;
let home: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  telegram = await startFakeTelegram({ token: TOKEN });
  dir = await makeTempDir('iris-send-during-start-');
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, '.env'), `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, { mode: 0o600 });
  await writePlatformConfig(home, `  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 5\n      allowed_users: ["4242"]\n`);
});
afterAll(async () => {
  await telegram.close();
  await upstream.close();
  await removeDir(dir);
});

it('a gateway starting while `iris send` (no gateway) is mid-send leaves that send to it: the message goes out once', async () => {
  const env = { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1` };
  // A slow Bot API (2.5 s before the message is taken) holds the command's send open.
  telegram.slowSends(() => ({ beforeMs: 2500 }));
  const command = runIris(['send', '--to', 'telegram:4242', '--wait', '0', 'hello, once'], { home, env, timeoutMs: 60_000 });
  await telegram.waitFor(() => telegram.sendsInFlight() > 0, 10_000, "the command's send in flight");
  const gateway = await startGatewayProcess(home, env);
  try {
    expect((await command).stdout).toMatch(/^sent to telegram:4242 by this command/);
    await waitFor(() => (outboxRows(home).every((row) => row.state === 'sent') && telegram.sendsInFlight() === 0 ? true : undefined), 20_000, 'the outbox settled');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(telegram.sent.map((message) => message.text)).toEqual(['hello, once']);
    expect(outboxRows(home).map((row) => [row.state, row.attempts])).toEqual([['sent', 1]]);
  } finally {
    await gateway.stop();
  }
});
