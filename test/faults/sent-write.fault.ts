// A failed `sent` write must not jam a chat. PostgreSQL refuses the first three writes that mark a
// Telegram answer sent (a trigger raises, as a failing database would; a sequence counts them, since
// the raise rolls back everything else). The outbox row used to stay `sending` under the live
// gateway, renewing its lease, and every later message of the chat waited for a restart. Now the
// write is tried again: the first answer is recorded once, and the chat's next three messages are
// answered.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram-api.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, removeDir } from '../helpers/iris.js';
import { adminQuery, dropSchema, freshSchemaName, schemaUrl } from '../helpers/postgres.js';

const TOKEN = '123456789:AAF-fake_token_for_tests_0123456789ab';
const ALICE = 111_111;

let upstream: FakeUpstream;
let telegram: FakeTelegram;
let dir: string;
let schema: string;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.script('main-m', { kind: 'echo', prefix: 'Re: ' });
  telegram = await startFakeTelegram({ token: TOKEN });
  dir = await makeTempDir('iris-fault-sent-');
  schema = freshSchemaName('iris_sent');
  await adminQuery(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  await gateway?.stop('SIGTERM');
  await telegram.close();
  await upstream.close();
  await dropSchema(schema).catch(() => undefined);
  await removeDir(dir);
});

it('the first three `sent` writes fail: the answer is recorded once, and the chat\'s next three messages are answered', async () => {
  const home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(
    join(home, 'config.yaml'),
    `model:\n  provider: openai\n  default: main-m\nstore:\n  url: "${schemaUrl(schema)}"\nplatforms:\n  telegram:\n    enabled: true\n    extra:\n      api_base: ${telegram.url}\n      poll_timeout: 1\n      allowed_users: ["${ALICE}"]\n`,
    { mode: 0o600 },
  );
  gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${upstream.url}/v1`, TELEGRAM_BOT_TOKEN: TOKEN }, 30_000);
  await adminQuery(
    `CREATE SEQUENCE ${schema}.sent_failures;
     CREATE FUNCTION ${schema}.fail_sent() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.state = 'sent' AND OLD.state = 'sending' AND nextval('${schema}.sent_failures') <= 3 THEN
         RAISE EXCEPTION 'injected failure of the sent write';
       END IF;
       RETURN NEW;
     END $$;
     CREATE TRIGGER fail_sent BEFORE UPDATE ON ${schema}.platform_outbox FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_sent();`,
  );

  telegram.pushMessage({ chatId: ALICE, userId: ALICE, text: 'first' });
  await telegram.waitFor(() => telegram.sent.length >= 1, 20_000, 'the first answer');
  for (const text of ['second', 'third', 'fourth']) telegram.pushMessage({ chatId: ALICE, userId: ALICE, text });
  await telegram.waitFor(() => telegram.sent.length >= 4, 30_000, 'the next three answers');
  const outbox = await waitFor(
    async () => {
      const rows = (await adminQuery('SELECT id, state, attempts FROM platform_outbox ORDER BY id', [], undefined, schema)).rows as Array<{ id: number; state: string; attempts: number }>;
      return rows.length === 4 && rows.every((row) => row.state === 'sent') ? rows : undefined;
    },
    10_000,
    'every answer recorded as sent',
  );
  const failures = Number(((await adminQuery(`SELECT last_value FROM ${schema}.sent_failures`)).rows as Array<{ last_value: string }>)[0]?.last_value);
  expect(telegram.sent.map((m) => m.text)).toEqual(['Re: first', 'Re: second', 'Re: third', 'Re: fourth']);
  expect(outbox.map((row) => row.attempts)).toEqual([1, 1, 1, 1]);
  expect(failures).toBeGreaterThanOrEqual(4); // three refused, then the writes that landed
  expect(gateway.output()).not.toContain('Unhandled');
});
