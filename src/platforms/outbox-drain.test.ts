// The outcome of a send is recorded even when the store fails the write: a failed `sent` write
// used to leave the row `sending` under the live gateway, and every later message of its chat
// waited for a restart. Now the write is retried while the store is away, and a write the store
// refuses has the row failed instead; either way the chat's next messages go.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers/iris.js';
import { StoreError } from '../store/errors.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import { drainPlatformOnce, outboxKey } from './outbox-drain.js';
import { startFakeSlack, type FakeSlack } from '../../test/fakes/slack-api.js';
import { createSlackAdapter } from './slack/adapter.js';
import type { OutboundMessage, PlatformAdapter } from './types.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function fakeAdapter(sent: string[]): PlatformAdapter {
  return {
    name: 'telegram',
    start: async () => {},
    send: async (message: OutboundMessage) => {
      sent.push(message.text);
      return { ok: true, messageId: `m${sent.length}` };
    },
    state: () => ({ status: 'connected' }) as never,
    check: async () => ({ ok: true }) as never,
    stop: async () => {},
  };
}

/** The store, with `markSent` failing as `failure` says (the first `times` calls). */
function withFailingSent(store: Store, failure: StoreError, times: number): Store {
  let calls = 0;
  const platforms = new Proxy(store.platforms, {
    get(target, key, receiver) {
      if (key === 'markSent') {
        return async (id: number, messageId: string | null) => {
          if (calls++ < times) throw failure;
          return target.markSent(id, messageId);
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { ...store, platforms };
}

describe('recording a send outcome the store fails', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = await makeTempDir('iris-outbox-');
    store = await openSqliteStore(join(dir, 'state.db'));
  });
  afterEach(async () => {
    await store.close();
    await removeDir(dir);
  });

  const enqueueFour = () =>
    store.platforms.enqueue(['first', 'second', 'third', 'fourth'].map((text) => ({ platform: 'telegram' as const, chatId: 'c1', threadId: null, text, origin: null, part: 0 })));

  it('a `sent` write that fails while the store is away is tried again: sent once, and the next three go', async () => {
    const ids = await enqueueFour();
    const sent: string[] = [];
    const flaky = withFailingSent(store, new StoreError('io', 'cannot reach PostgreSQL'), 3);
    await drainPlatformOnce({ store: flaky, adapters: new Map(), log: quiet, writeRetryMs: [1] }, 'telegram', fakeAdapter(sent), new AbortController().signal);
    expect(sent).toEqual(['first', 'second', 'third', 'fourth']);
    for (const id of ids) expect((await store.platforms.getOutbox(id))?.state).toBe('sent');
  });

  it('a `sent` write the store refuses has the row failed with why: the next three go', async () => {
    const ids = await enqueueFour();
    const sent: string[] = [];
    const refusing = withFailingSent(store, new StoreError('invalid', 'a refused value'), 3);
    await drainPlatformOnce({ store: refusing, adapters: new Map(), log: quiet, writeRetryMs: [1] }, 'telegram', fakeAdapter(sent), new AbortController().signal);
    expect(sent).toEqual(['first', 'second', 'third', 'fourth']);
    expect(await store.platforms.getOutbox(ids[0]!)).toMatchObject({ state: 'failed', lastError: 'sent, but the store refused to record it: a refused value' });
    for (const id of ids.slice(1)) expect((await store.platforms.getOutbox(id))?.state).toBe('sent');
  });
});

describe('a Slack row taken over from a sender that died mid-send', () => {
  let dir: string;
  let store: Store;
  let slack: FakeSlack;
  beforeEach(async () => {
    dir = await makeTempDir('iris-outbox-slack-');
    store = await openSqliteStore(join(dir, 'state.db'));
    slack = await startFakeSlack();
  });
  afterEach(async () => {
    await slack.close();
    await store.close();
    await removeDir(dir);
  });

  it('is found in the conversation by its key and not posted again; a row that never went out is posted', async () => {
    const [taken, lost] = await store.platforms.enqueue([
      { platform: 'slack', chatId: 'C1', threadId: null, text: 'went out', origin: null, part: 0 },
      { platform: 'slack', chatId: 'C2', threadId: null, text: 'never went out', origin: null, part: 0 },
    ]);
    // A sender (pid 999999999, gone) claimed both, posted the first with its key, then died.
    await store.platforms.claimDueOutbox('slack', Date.now(), 2, 999_999_999);
    const adapter = createSlackAdapter({ extra: { api_base: slack.url }, env: { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken }, log: quiet });
    await adapter.send({ chatId: 'C1', threadId: null, text: 'went out', key: outboxKey(taken!) });
    expect(await store.platforms.recoverOutbox(() => false)).toBe(2);

    await drainPlatformOnce({ store, adapters: new Map(), log: quiet }, 'slack', adapter, new AbortController().signal);
    expect(slack.sent.map((m) => m.text)).toEqual(['went out', 'never went out']);
    expect(await store.platforms.getOutbox(taken!)).toMatchObject({ state: 'sent', sentMessageId: slack.sent[0]!.ts });
    expect(await store.platforms.getOutbox(lost!)).toMatchObject({ state: 'sent', sentMessageId: slack.sent[1]!.ts });
    expect(slack.calls('conversations.history').map((call) => call.params.channel)).toEqual(['C1', 'C2']);
  });
});
