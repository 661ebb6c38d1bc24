// A known bug, reproduced (found with the platform crash harness, not yet fixed): `iris send` with
// no gateway running sends the message itself, and while its sendMessage is in flight the row is
// `sending`. A gateway that starts just then takes every `sending` row for one a dead process left
// (outbox recovery at start) and sends it again: the message goes out twice, with no crash at all.
// The fix needs the claim's owner in the outbox (or a lock between the two); see the report of
// issue 15's crash run. This test asserts the bug as it is (two copies), so that it stays visible
// and fails the day it is fixed: then it should assert one copy.
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

it('KNOWN BUG (reproduced, not fixed): a gateway starting while `iris send` (no gateway) is mid-send sends the message a second time', async () => {
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
    // The bug: the command's copy and the gateway's. Fixed, this is ['hello, once'].
    expect(telegram.sent.map((message) => message.text)).toEqual(['hello, once', 'hello, once']);
    expect(outboxRows(home).map((row) => [row.state, row.attempts])).toEqual([['sent', 2]]);
  } finally {
    await gateway.stop();
  }
});
