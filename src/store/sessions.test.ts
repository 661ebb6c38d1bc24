// Sessions and their messages, on both stores (SQLite and PostgreSQL): round trips, ordering,
// transactions, cascades.
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS, useStores } from '../../test/helpers/store-backends.js';
import type { Message } from '../domain/messages.js';
import { SESSION_ID_PATTERN } from './ids.js';
import type { Store } from './types.js';

describe.each(STORE_BACKENDS)('$name', (backend) => {
const stores = useStores(backend);
let store: Store;
let clock: number;
let path: string;
beforeEach(async () => {
  clock = 1_000;
  store = await stores.open({ now: () => clock });
  path = store.location;
});

const newSession = (extra: { id?: string; source?: string } = {}) =>
  store.createSession({ source: 'cli', provider: 'openai', model: 'gpt-5', ...extra });

const CONVERSATION: readonly Message[] = [
  { role: 'user', content: 'What is in this picture, and in the repo?' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'this one' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' },
      { type: 'image_url', url: 'https://example.com/cat.png' },
    ],
  },
  {
    role: 'assistant',
    content: 'Let me look.',
    toolCalls: [
      { id: 'call_1', name: 'files_list', arguments: { path: '.', depth: 2, filters: ['*.ts'], nested: { a: null } } },
      { id: 'call_2', name: 'terminal', arguments: {}, invalidArguments: '{"cmd": "ls' },
    ],
  },
  { role: 'tool', toolCallId: 'call_1', name: 'files_list', content: 'src/\ntest/' },
  { role: 'tool', toolCallId: 'call_2', name: 'terminal', content: 'arguments are not JSON', isError: true },
  { role: 'assistant', content: 'A cat; and a TypeScript repo. Ünïcödé ✓ and "quotes"\n' },
];

describe('sessions', () => {
  it('creates a session with a generated s_ id, idle, stamped with the clock', async () => {
    const session = await newSession();
    expect(session.id).toMatch(SESSION_ID_PATTERN);
    expect(session).toEqual({
      id: session.id,
      source: 'cli',
      title: null,
      provider: 'openai',
      model: 'gpt-5',
      status: 'idle',
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    expect(await store.getSession(session.id)).toEqual(session);
    expect(await store.getSession('s_nosuchsession')).toBeUndefined();
  });

  it('keeps a given id and title, and refuses a taken id', async () => {
    const session = await store.createSession({ id: 'webhook-42', source: 'webhook:pr', provider: 'anthropic', model: 'claude-sonnet-4-5', title: 'PR 42' });
    expect(session).toMatchObject({ id: 'webhook-42', title: 'PR 42' });
    await expect(newSession({ id: 'webhook-42' })).rejects.toMatchObject({
      name: 'StoreError',
      code: 'conflict',
      message: `${path}: a session webhook-42 exists already`,
    });
  });

  it('lists sessions by last update, newest first, with a limit and a source filter', async () => {
    const a = await newSession({ id: 'a' });
    clock = 2_000;
    const b = await newSession({ id: 'b', source: 'webhook:pr' });
    clock = 3_000;
    await newSession({ id: 'c' });
    clock = 4_000;
    await store.appendMessages(a.id, [{ role: 'user', content: 'bump' }]);
    expect((await store.listSessions()).map((s) => s.id)).toEqual(['a', 'c', 'b']);
    expect((await store.listSessions({ limit: 2 })).map((s) => s.id)).toEqual(['a', 'c']);
    expect(await store.listSessions({ source: 'webhook:pr' })).toEqual([{ ...b, messageCount: 0 }]);
  });

  it('narrows the listing by id prefix, title, source prefix and last activity, and counts messages', async () => {
    await newSession({ id: 's_ab_1' });
    clock = 2_000;
    await newSession({ id: 's_ab_2', source: 'webhook:pr' });
    await store.updateSession('s_ab_2', { title: 'Same' });
    clock = 3_000;
    await newSession({ id: 's_ac_3', source: 'webhook:push' });
    await store.updateSession('s_ac_3', { title: 'Same' });
    await store.appendMessages('s_ac_3', [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }]);
    const ids = async (query: Parameters<Store['listSessions']>[0]) => (await store.listSessions(query)).map((s) => s.id);
    expect(await ids({ idPrefix: 's_ab' })).toEqual(['s_ab_2', 's_ab_1']);
    expect(await ids({ idPrefix: 's_ab_' })).toEqual(['s_ab_2', 's_ab_1']);
    expect(await ids({ idPrefix: 's_a', limit: 1 })).toEqual(['s_ac_3']);
    expect(await ids({ title: 'Same', limit: 1 })).toEqual(['s_ac_3']);
    expect(await ids({ sourcePrefix: 'webhook:' })).toEqual(['s_ac_3', 's_ab_2']);
    expect(await ids({ updatedBefore: 3_000 })).toEqual(['s_ab_2', 's_ab_1']);
    expect(await ids({ source: 'cli', title: 'Same' })).toEqual([]);
    expect((await store.listSessions({ idPrefix: 's_ac' }))[0]).toMatchObject({ id: 's_ac_3', messageCount: 2, title: 'Same' });
  });

  it('deletes sessions with their messages in one go, keeps their usage, and never a running one', async () => {
    const idle = await newSession({ id: 'idle' });
    const busy = await newSession({ id: 'busy' });
    await store.appendMessages(idle.id, CONVERSATION);
    await store.updateSession(busy.id, { status: 'running' });
    await store.recordUsage({ sessionId: idle.id, at: 1, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 10, outputTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: 0.5 });
    expect(await store.deleteSessions([busy.id, idle.id, 'never-was'])).toEqual([idle.id]);
    expect(await store.getSession(idle.id)).toBeUndefined();
    expect(await store.getSession(busy.id)).toMatchObject({ status: 'running' });
    expect(await store.loadMessages(idle.id)).toEqual([]);
    expect((await store.usageSummary({ by: 'task' })).map((row) => [row.key, row.inputTokens])).toEqual([['main', 10]]);
    expect(await store.deleteSessions([])).toEqual([]);
  });

  it('updates only the given fields and the update time', async () => {
    const session = await newSession();
    clock = 5_000;
    const updated = await store.updateSession(session.id, { title: 'Fix the build', status: 'running' });
    expect(updated).toEqual({ ...session, title: 'Fix the build', status: 'running', updatedAt: 5_000 });
    clock = 6_000;
    expect(await store.updateSession(session.id, { provider: 'anthropic', model: 'claude-opus-4-1' })).toEqual({
      ...session,
      title: 'Fix the build',
      status: 'running',
      provider: 'anthropic',
      model: 'claude-opus-4-1',
      updatedAt: 6_000,
    });
    expect(await store.updateSession(session.id, {})).toMatchObject({ updatedAt: 6_000 });
    expect(await store.updateSession('nope', { title: 'x' })).toBeUndefined();
  });
});

describe('messages', () => {
  it('round-trip exactly: tool calls, a tool error, image parts', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, CONVERSATION.slice(0, 3));
    await store.appendMessages(session.id, CONVERSATION.slice(3));
    expect(await store.loadMessages(session.id)).toEqual(CONVERSATION);
    expect(await stores.sql('SELECT seq, role FROM messages ORDER BY seq')).toEqual(CONVERSATION.map((message, seq) => ({ seq, role: message.role })));
  });

  it('appending moves the session’s updated_at', async () => {
    const session = await newSession();
    clock = 7_000;
    await store.appendMessages(session.id, [{ role: 'user', content: 'hi' }]);
    expect(await store.getSession(session.id)).toMatchObject({ createdAt: 1_000, updatedAt: 7_000 });
  });

  it('replaceMessages swaps the whole history and moves updated_at', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, CONVERSATION);
    clock = 8_000;
    const compressed: Message[] = [{ role: 'user', content: '[summary] a cat and a repo' }, CONVERSATION[5]!];
    await store.replaceMessages(session.id, compressed);
    expect(await store.loadMessages(session.id)).toEqual(compressed);
    expect(await store.getSession(session.id)).toMatchObject({ updatedAt: 8_000 });
    await store.appendMessages(session.id, [{ role: 'user', content: 'next' }]);
    expect(await store.loadMessages(session.id)).toEqual([...compressed, { role: 'user', content: 'next' }]);
  });

  it('a failing append writes nothing: no message, no updated_at', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, [{ role: 'user', content: 'kept' }]);
    clock = 9_000;
    const unserialisable = { role: 'assistant', content: 'x', toolCalls: [{ id: 'c', name: 'n', arguments: { big: 10n } }] } as unknown as Message;
    await expect(
      store.appendMessages(session.id, [{ role: 'assistant', content: 'would be half-written' }, unserialisable]),
    ).rejects.toMatchObject({
      name: 'StoreError',
      code: 'invalid',
      message: `${path}: message 2 of 2 for session ${session.id} cannot be stored: Do not know how to serialize a BigInt`,
    });
    expect(await store.loadMessages(session.id)).toEqual([{ role: 'user', content: 'kept' }]);
    expect(await store.getSession(session.id)).toMatchObject({ updatedAt: 1_000 });
  });

  it('a failing replace keeps the old history', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, CONVERSATION);
    const wrongShape = { role: 'system', content: 'not a role we store' } as unknown as Message;
    await expect(store.replaceMessages(session.id, [{ role: 'user', content: 'summary' }, wrongShape])).rejects.toMatchObject({
      code: 'invalid',
      message: `${path}: message 2 of 2 for session ${session.id} cannot be stored: role: Invalid input`,
    });
    expect(await store.loadMessages(session.id)).toEqual(CONVERSATION);
  });

  it('refuses messages for a session that does not exist', async () => {
    await expect(store.appendMessages('s_missing', [{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'not_found',
      message: `${path}: no session s_missing`,
    });
    expect(await store.loadMessages('s_missing')).toEqual([]);
  });

  it('reports a stored message that no longer reads as a Message as corrupt', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, [{ role: 'user', content: 'fine' }]);
    await stores.sql('UPDATE messages SET content = ? WHERE session_id = ?', ['{"role":"user","content":42}', session.id]);
    await expect(store.loadMessages(session.id)).rejects.toMatchObject({
      code: 'corrupt',
      message: `${path}: message 0 of session ${session.id} is unreadable (content: Invalid input)`,
    });
  });

  it('deleting a session deletes its messages and keeps its usage exactly as it was', async () => {
    const session = await newSession();
    await store.appendMessages(session.id, CONVERSATION);
    await store.recordUsage({ sessionId: session.id, at: 1, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 10, outputTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, source: 'cli', costUsd: 0.5 });
    await stores.sql('DELETE FROM sessions WHERE id = ?', [session.id]);
    expect(await stores.sql('SELECT count(*) AS n FROM messages')).toEqual([{ n: 0 }]);
    expect(await stores.sql('SELECT session_id, input_tokens FROM usage')).toEqual([{ session_id: session.id, input_tokens: 10 }]);
    expect(await store.loadMessages(session.id)).toEqual([]);
  });
});
});
