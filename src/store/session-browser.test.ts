// The Sessions page's reads on both stores: search by title and message text (wildcards literal,
// ASCII case folded, tool output not searched), source filters, paging and totals, message times
// and a session's model calls.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import { likeContains, sourceConditions } from './session-browser.js';
import type { Store } from './types.js';

describe('likeContains', () => {
  it('escapes %, _ and the backslash so they match themselves', () => {
    expect(likeContains('100%_done\\')).toBe('%100\\%\\_done\\\\%');
    expect(likeContains('plain words')).toBe('%plain words%');
  });
});

describe('sourceConditions', () => {
  it('combines one-of, none-of, exact and prefix filters', () => {
    expect(sourceConditions({ sourceIn: ['cli', 'dashboard'], limit: 1, offset: 0 })).toEqual({
      sql: 'source IN (@sourceIn0, @sourceIn1)',
      params: { sourceIn0: 'cli', sourceIn1: 'dashboard' },
    });
    expect(sourceConditions({ sourceNotIn: ['cli'], sourcePrefix: 'webhook:', limit: 1, offset: 0 })).toEqual({
      sql: 'source >= @sourceFrom AND source < @sourceTo AND source NOT IN (@sourceNotIn0)',
      params: { sourceFrom: 'webhook:', sourceTo: 'webhook;', sourceNotIn0: 'cli' },
    });
    expect(sourceConditions({ limit: 1, offset: 0 }).sql).toBe('1 = 1');
    expect(sourceConditions({ sourceIn: [], limit: 1, offset: 0 }).sql).toBe('1 = 0');
  });
});

describe.each(STORE_BACKENDS)('$name', (backend) => {
  const stores = useStores(backend);
  let store: Store;
  let clock: number;
  beforeEach(async () => {
    clock = 1_000;
    store = await stores.open({ now: () => clock });
  });

  /** A session with these messages, one clock tick later than the one before. */
  async function session(source: string, title: string | null, texts: Array<{ role: 'user' | 'assistant' | 'tool'; text: string }>) {
    clock += 1_000;
    const created = await store.createSession({ source, provider: 'openai', model: 'gpt-5', title });
    await store.appendMessages(
      created.id,
      texts.map((m) =>
        m.role === 'tool' ? { role: 'tool' as const, toolCallId: 'c1', name: 'read_file', content: m.text } : m.role === 'user' ? { role: 'user' as const, content: m.text } : { role: 'assistant' as const, content: m.text },
      ),
    );
    return created.id;
  }

  const ids = async (query: Parameters<Store['sessionBrowser']['search']>[0]) => {
    const found = await store.sessionBrowser.search(query);
    return { ids: found.sessions.map((s) => s.id), total: found.total, scanLimited: found.scanLimited };
  };

  it('finds sessions by title or by user/assistant text, case-insensitively, never by tool output', async () => {
    const byTitle = await session('cli', 'Deploy the Kiwi app', [{ role: 'user', text: 'hello' }]);
    const byUser = await session('cli', null, [{ role: 'user', text: 'Please check the KIWI orchard' }]);
    const byAnswer = await session('webhook:pr', 'PR 7', [
      { role: 'user', text: 'review' },
      { role: 'assistant', text: 'the kiwi tests fail' },
    ]);
    await session('cli', 'other', [
      { role: 'user', text: 'read it' },
      { role: 'tool', text: 'kiwi in a file' },
    ]);
    expect(await ids({ text: 'kiwi', limit: 10, offset: 0 })).toEqual({ ids: [byAnswer, byUser, byTitle], total: 3, scanLimited: false });
    expect(await ids({ text: 'KiWi', sourceIn: ['cli', 'dashboard'], limit: 10, offset: 0 })).toEqual({ ids: [byUser, byTitle], total: 2, scanLimited: false });
    expect(await ids({ text: 'kiwi', limit: 1, offset: 1 })).toEqual({ ids: [byUser], total: 3, scanLimited: false });
    expect((await store.sessionBrowser.search({ text: 'orchard', limit: 10, offset: 0 })).sessions).toEqual([
      expect.objectContaining({ id: byUser, source: 'cli', messageCount: 1 }),
    ]);
  });

  it('% and _ in the query match only themselves; image parts are searched by their text only', async () => {
    const percent = await session('cli', null, [{ role: 'user', text: 'coverage at 100% now' }]);
    await session('cli', null, [{ role: 'user', text: 'coverage at 1000 now' }]);
    const underscore = await session('cli', 'snake_case names', []);
    await session('cli', 'snakeXcase names', []);
    clock += 1_000;
    const image = await store.createSession({ source: 'telegram', provider: 'openai', model: 'gpt-5' });
    await store.appendMessages(image.id, [
      { role: 'user', content: [{ type: 'text', text: 'what is this banana' }, { type: 'image', mediaType: 'image/png', data: 'QUJDRA==' }] },
    ]);
    expect((await ids({ text: '100%', limit: 10, offset: 0 })).ids).toEqual([percent]);
    expect((await ids({ text: 'snake_case', limit: 10, offset: 0 })).ids).toEqual([underscore]);
    expect((await ids({ text: 'banana', limit: 10, offset: 0 })).ids).toEqual([image.id]);
    expect((await ids({ text: 'image/png', limit: 10, offset: 0 })).ids).toEqual([]);
    expect((await ids({ text: 'QUJDRA', limit: 10, offset: 0 })).ids).toEqual([]);
  });

  it('a message holding U+0000 is stored and searched without failing the search', async () => {
    clock += 1_000;
    const nul = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5' });
    await store.appendMessages(nul.id, [{ role: 'user', content: 'before\u0000after mango' }]);
    const plain = await session('cli', null, [{ role: 'user', text: 'a mango tree' }]);
    expect((await ids({ text: 'mango', limit: 10, offset: 0 })).ids).toEqual([plain, nul.id]);
  });

  it('without text: source filters, paging and the total of the filter', async () => {
    const cli = await session('cli', 'a', []);
    const dash = await session('dashboard', 'b', []);
    const hookA = await session('webhook:pr', 'c', []);
    const hookB = await session('webhook:issues', 'd', []);
    const tg = await session('telegram', 'e', []);
    expect(await ids({ sourceIn: ['cli', 'dashboard'], limit: 10, offset: 0 })).toEqual({ ids: [dash, cli], total: 2, scanLimited: false });
    expect(await ids({ sourceNotIn: ['cli', 'dashboard'], limit: 2, offset: 0 })).toEqual({ ids: [tg, hookB], total: 3, scanLimited: false });
    expect(await ids({ sourceNotIn: ['cli', 'dashboard'], limit: 2, offset: 2 })).toEqual({ ids: [hookA], total: 3, scanLimited: false });
    expect(await ids({ sourcePrefix: 'webhook:', limit: 10, offset: 0 })).toEqual({ ids: [hookB, hookA], total: 2, scanLimited: false });
    expect(await ids({ source: 'webhook:pr', sourceIn: ['cli'], limit: 10, offset: 0 })).toEqual({ ids: [], total: 0, scanLimited: false });
  });

  it("message times and a session's model calls; a deleted session is gone from both", async () => {
    clock = 5_000;
    const created = await store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5' });
    clock = 6_000;
    await store.appendMessages(created.id, [{ role: 'user', content: 'q' }]);
    clock = 7_000;
    await store.appendMessages(created.id, [{ role: 'assistant', content: 'a' }]);
    await store.recordUsage({ sessionId: created.id, at: 6_500, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 10, outputTokens: 5, cachedTokens: 2, cacheWriteTokens: 4, source: 'cli', costUsd: 0.25 });
    await store.recordUsage({ sessionId: created.id, at: 7_500, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', inputTokens: 3, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: null });
    expect(await store.sessionBrowser.timedMessages(created.id)).toEqual([
      { at: 6_000, message: { role: 'user', content: 'q' } },
      { at: 7_000, message: { role: 'assistant', content: 'a' } },
    ]);
    const calls = [
      { at: 6_500, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 10, outputTokens: 5, cachedTokens: 2, cacheWriteTokens: 4, costUsd: 0.25 },
      { at: 7_500, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', inputTokens: 3, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, costUsd: null },
    ];
    expect(await store.sessionBrowser.usageOf(created.id)).toEqual(calls);
    expect(await store.deleteSessions([created.id])).toEqual([created.id]);
    expect(await store.sessionBrowser.timedMessages(created.id)).toEqual([]);
    expect(await store.sessionBrowser.search({ limit: 10, offset: 0 })).toEqual({ sessions: [], total: 0, scanLimited: false });
  });
});
