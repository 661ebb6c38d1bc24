// DECISIONS "Text on both stores": any text is stored as sent on SQLite and on PostgreSQL, U+0000
// and the PostgreSQL escape's own character included, in every table whose text comes from
// outside (webhook payloads and lanes, sessions and messages, platform inbound and outbox, PR
// threads, the kanban board); and a batch write with one bad item fails that item alone.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { NewWebhookEvent } from './webhook-types.js';
import type { Store } from './types.js';

const STRANGE = 'a\u0000b \uFDD0 \uFDD00 \u0000';

function event(overrides: Partial<NewWebhookEvent> = {}): NewWebhookEvent {
  return {
    route: 'pr',
    deliveryId: 'd1',
    deduplicate: true,
    event: 'pull_request',
    payload: JSON.stringify({ title: 'plain' }),
    routeSnapshot: JSON.stringify({ name: 'pr' }),
    receivedAt: 1_000,
    ...overrides,
  };
}

describe.each(STORE_BACKENDS)('text on both stores ($name)', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  beforeEach(async () => {
    store = await stores.open({ now: () => 1_000, server: true });
  });

  it('keeps U+0000 in every text of a webhook event, and runs the next event of its lane', async () => {
    const lane = `pr:github:o/n${STRANGE}#1`;
    const poisoned = await store.webhooks.accept(
      event({ deliveryId: `d${STRANGE}`, event: `e${STRANGE}`, payload: JSON.stringify({ title: STRANGE }).replace('\\u0000', '\u0000'), routeSnapshot: `{"n":"${STRANGE}"}`, lane }),
      0,
    );
    expect(poisoned.status).toBe('accepted');
    const id = poisoned.status === 'accepted' ? poisoned.id : -1;
    const record = await store.webhooks.get(id);
    expect(record?.deliveryId).toBe(`d${STRANGE}`);
    expect(record?.event).toBe(`e${STRANGE}`);
    expect(record?.payload).toContain('\u0000');
    expect(record?.lane).toBe(lane);
    // A second delivery of it is a duplicate: the dedup key compares as written.
    expect((await store.webhooks.accept(event({ deliveryId: `d${STRANGE}`, lane }), 0)).status).toBe('duplicate');
    const next = await store.webhooks.accept(event({ deliveryId: 'd2', lane }), 0);

    const claimed = await store.webhooks.claimNextRun(3);
    expect(claimed?.id).toBe(id);
    await store.webhooks.setSession(id, 'unused');
    expect(await store.webhooks.finishRun(id, `out${STRANGE}`)).toBe(true);
    expect((await store.webhooks.get(id))?.output).toBe(`out${STRANGE}`);
    await store.webhooks.markDeliveryFailed(id, 1, `err${STRANGE}`);
    expect((await store.webhooks.get(id))?.error).toBe(`err${STRANGE}`);
    expect((await store.webhooks.claimNextRun(3))?.id).toBe(next.status === 'accepted' ? next.id : -1);
  });

  it('keeps U+0000 in session titles and messages', async () => {
    const session = await store.createSession({ id: `s${STRANGE}`, source: `webhook:${STRANGE}`, provider: 'p', model: 'm', title: `t${STRANGE}` });
    expect(session.title).toBe(`t${STRANGE}`);
    await store.appendMessages(session.id, [
      { role: 'user', content: `u${STRANGE}` },
      { role: 'assistant', content: `a${STRANGE}` },
    ]);
    expect(await store.loadMessages(session.id)).toEqual([
      { role: 'user', content: `u${STRANGE}` },
      { role: 'assistant', content: `a${STRANGE}` },
    ]);
    expect((await store.updateSession(session.id, { title: `new${STRANGE}` }))?.title).toBe(`new${STRANGE}`);
    expect((await store.getSession(session.id))?.source).toBe(`webhook:${STRANGE}`);
    expect((await store.listSessions({ source: `webhook:${STRANGE}` })).map((s) => s.id)).toEqual([session.id]);
  });

  it('keeps U+0000 in a platform message in and the answer out, and answers the next message of the chat', async () => {
    const first = await store.platforms.recordInbound(
      { platform: 'telegram', chatId: '100', threadId: null, messageId: 'm1', userId: 'u1', userName: `n${STRANGE}`, text: `hi${STRANGE}`, isDirect: true, receivedAt: 1 },
      'telegram:100',
      'queued',
    );
    await store.platforms.recordInbound(
      { platform: 'telegram', chatId: '100', threadId: null, messageId: 'm2', userId: 'u1', userName: 'n', text: 'next', isDirect: true, receivedAt: 2 },
      'telegram:100',
      'queued',
    );
    const claimed = await store.platforms.claimNextInbound();
    expect(claimed?.id).toBe(first.id);
    expect(claimed?.text).toBe(`hi${STRANGE}`);
    expect(claimed?.userName).toBe(`n${STRANGE}`);
    await store.platforms.finishInbound(first.id, { state: 'answered' }, [{ platform: 'telegram', chatId: '100', threadId: null, text: `re${STRANGE}`, origin: `inbound:${first.id}`, part: 0 }]);
    const [out] = await store.platforms.claimDueOutbox('telegram', 10_000, 5);
    expect(out?.text).toBe(`re${STRANGE}`);
    await store.platforms.markFailed(out!.id, `why${STRANGE}`);
    expect((await store.platforms.getOutbox(out!.id))?.lastError).toBe(`why${STRANGE}`);
    expect((await store.platforms.claimNextInbound())?.text).toBe('next');
  });

  it('keeps U+0000 in PR threads and kanban tasks', async () => {
    const thread = await store.prThreads.update('pr', `github:o/n${STRANGE}#1`, { reviewedSha: `sha${STRANGE}` });
    expect(thread.prKey).toBe(`github:o/n${STRANGE}#1`);
    expect((await store.prThreads.get('pr', `github:o/n${STRANGE}#1`))?.reviewedSha).toBe(`sha${STRANGE}`);
    const task = await store.kanban.create({ title: `t${STRANGE}`, body: `b${STRANGE}` });
    expect(await store.kanban.get(task.id)).toMatchObject({ title: `t${STRANGE}`, body: `b${STRANGE}` });
  });

  it('accepts 200 events written in one batch beside one the database refuses, and refuses that one alone', async () => {
    const innocent = Array.from({ length: 200 }, (_, i) => store.webhooks.accept(event({ deliveryId: `ok-${i}` }), 0));
    // Not a time: refused by both databases (NOT NULL on SQLite, bigint syntax on PostgreSQL).
    const bad = store.webhooks.accept(event({ deliveryId: 'bad', receivedAt: Number.NaN }), 0);
    const more = Array.from({ length: 20 }, (_, i) => store.webhooks.accept(event({ deliveryId: `after-${i}` }), 0));
    const outcomes = await Promise.allSettled([...innocent, bad, ...more]);
    const statuses = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : 'rejected'));
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(220);
    expect(statuses[200]).toBe('rejected');
    expect(await store.webhooks.isDuplicate('pr', 'bad', 0)).toBe(false);
    expect((await store.webhooks.list()).length).toBe(220);
  });
});
