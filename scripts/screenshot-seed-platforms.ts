// The Platforms page's screenshot data: Telegram and Slack enabled in config.yaml (owners, a home
// channel on Telegram, none on Slack), a Telegram token in .env (the page shows it only as "set"),
// two pending pairing codes and two approved users in state.db, placed relative to `now`.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { openSqliteStore } from '../src/store/sqlite-store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const PLATFORMS = {
  telegram: { enabled: true, extra: { owners: [41822], home_channel: -100200300, allowed_users: [41822] } },
  slack: { enabled: true, extra: { owners: ['U04ADA'] } },
};

export async function seedPlatforms(home: string, now: number): Promise<void> {
  // Edited as a YAML document, so whatever other seeds wrote to config.yaml stays.
  const path = join(home, 'config.yaml');
  const doc = parseDocument(await readFile(path, 'utf8'));
  for (const [name, section] of Object.entries(PLATFORMS)) doc.setIn(['platforms', name], doc.createNode(section));
  await writeFile(path, doc.toString(), { mode: 0o600 });
  await appendFile(join(home, '.env'), 'TELEGRAM_BOT_TOKEN=7000000001:AAF-screenshot-token-not-real\n', { mode: 0o600 });

  const store = await openSqliteStore(join(home, 'state.db'));
  try {
    /** A request made `ago` ago, as the gateway stores one when a stranger writes. */
    const ask = (platform: 'telegram' | 'slack', userId: string, userName: string, code: string, ago: number) =>
      store.platforms.requestPairing({ platform, userId, userName, chatId: platform === 'telegram' ? userId : `D0${userId}`, code, createdAt: now - ago, expiresAt: now - ago + HOUR }, now - ago);
    await ask('telegram', '52904', 'Grace', 'GRACE224', 3 * HOUR);
    await store.platforms.approvePairing('telegram', 'GRACE224', now - 3 * HOUR + 5 * MINUTE);
    await ask('telegram', '61377', 'Linus', 'LIN7XQ2P', 20 * HOUR);
    await store.platforms.approvePairing('telegram', 'LIN7XQ2P', now - 20 * HOUR + 2 * MINUTE);
    await ask('telegram', '77310', 'Margaret', 'MH4K9TZD', 4 * MINUTE);
    await ask('slack', 'U05BOB', 'Bob', 'B0BC0DE5', 12 * MINUTE);
  } finally {
    await store.close();
  }
}
