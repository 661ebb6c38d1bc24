// The Sessions page's REST API over real HTTP against `bin/iris dashboard`: list with tabs, search
// and source filters; a transcript; rename, delete and export with exact bodies; every refusal
// with its status and message; each write a line in logs/audit.log.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let dir: string;
let home: string;
let dash: DashboardProcess;

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

/** Four sessions, oldest first: a CLI chat, a webhook run, a Telegram conversation, a dashboard chat. */
async function seed(): Promise<void> {
  let clock = T0;
  const store = await openSqliteStore(join(home, 'state.db'), { now: () => clock });
  try {
    const chat = await store.createSession({ id: 's_chat0001', source: 'cli', provider: 'openai', model: 'gpt-5', title: 'Plan the kiwi harvest' });
    clock += 1_000;
    await store.appendMessages(chat.id, [{ role: 'user', content: 'When do kiwis ripen?' }]);
    await store.recordUsage({ sessionId: chat.id, at: clock + 100, provider: 'openai', model: 'gpt-5', task: 'main', inputTokens: 120, outputTokens: 30, cachedTokens: 0, cacheWriteTokens: 0, costUsd: 0.002, source: 'cli' });
    clock += 1_000;
    await store.appendMessages(chat.id, [
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes/orchard.md' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'Harvest: late October' },
      { role: 'assistant', content: 'In late October.' },
    ]);
    await store.recordUsage({ sessionId: chat.id, at: clock + 100, provider: 'openai', model: 'gpt-5-mini', task: 'title_generation', inputTokens: 40, outputTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, costUsd: null, source: 'cli' });
    clock += 1_000;
    const hook = await store.createSession({ id: 's_hook0001', source: 'webhook:pr-review', provider: 'openai', model: 'gpt-5', title: 'PR 42 review' });
    await store.appendMessages(hook.id, [
      { role: 'user', content: 'Review PR #42: replace the banana parser' },
      { role: 'assistant', content: 'Looks good to me.' },
    ]);
    clock += 1_000;
    const telegram = await store.createSession({ id: 's_tele0001', source: 'telegram', provider: 'openai', model: 'gpt-5' });
    await store.appendMessages(telegram.id, [{ role: 'user', content: 'hello 100% _literal_' }]);
    clock += 1_000;
    await store.createSession({ id: 's_dash0001', source: 'dashboard', provider: 'anthropic', model: 'claude-sonnet-4-5', title: 'Empty dashboard chat' });
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
  await writeFile(join(home, 'config.yaml'), 'model:\n  provider: openai\n  default: gpt-5\n', { mode: 0o600 });
});
afterEach(async () => {
  await dash?.stop();
  await removeDir(dir);
});

type Answer = { status: number; json: unknown; text: string; headers: Headers };

async function api(path: string, init: { method?: string; body?: unknown; raw?: string; token?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token !== null) headers['x-service-session-token'] = init.token ?? dash.token;
  if (init.body !== undefined || init.raw !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${dash.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : init.raw !== undefined ? { body: init.raw } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

const ids = async (query: string) => {
  const answer = await api(`/api/sessions${query}`);
  expect(answer.status).toBe(200);
  const body = answer.json as { sessions: Array<{ id: string }>; total: number; scan_limited: boolean };
  return { ids: body.sessions.map((s) => s.id), total: body.total };
};

type AuditRow = { actor: string; from: string; action: string; target: string; ok: boolean; reason?: string };
async function audit(): Promise<AuditRow[]> {
  const text = await readFile(join(home, 'logs', 'audit.log'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const row = JSON.parse(line) as AuditRow & { time?: string };
      expect(row.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      delete row.time;
      return row;
    });
}

describe('without a store', () => {
  it('lists nothing (and creates no state.db); a named session is 404', async () => {
    dash = await startDashboardProcess(home);
    expect((await api('/api/sessions')).json).toEqual({ sessions: [], total: 0, scan_limited: false });
    expect(await api('/api/sessions/s_nope')).toMatchObject({ status: 404, json: { error: 'no session with the id or title "s_nope": no session has been recorded yet' } });
    await expect(readFile(join(home, 'state.db'))).rejects.toThrow();
  });
});

describe('with sessions', () => {
  beforeEach(async () => {
    await seed();
    dash = await startDashboardProcess(home);
  });

  it('401 without the token, on every endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/api/sessions'],
      ['GET', '/api/sessions/s_chat0001'],
      ['PATCH', '/api/sessions/s_chat0001'],
      ['DELETE', '/api/sessions/s_chat0001'],
      ['GET', '/api/sessions/s_chat0001/export'],
    ] as const) {
      expect(await api(path, { method, token: null })).toMatchObject({ status: 401, json: { error: 'Unauthorized' } });
    }
    expect(await audit()).toEqual([]);
  });

  it('lists in the sessions list --json row shape, newest first; tabs split chats from automation', async () => {
    const all = await api('/api/sessions');
    expect(all.json).toEqual({
      sessions: [
        { id: 's_dash0001', title: 'Empty dashboard chat', source: 'dashboard', provider: 'anthropic', model: 'claude-sonnet-4-5', messages: 0, status: 'idle', created_at: '2026-11-20T10:00:05.000Z', updated_at: '2026-11-20T10:00:05.000Z' },
        { id: 's_tele0001', title: null, source: 'telegram', provider: 'openai', model: 'gpt-5', messages: 1, status: 'idle', created_at: '2026-11-20T10:00:04.000Z', updated_at: '2026-11-20T10:00:04.000Z' },
        { id: 's_hook0001', title: 'PR 42 review', source: 'webhook:pr-review', provider: 'openai', model: 'gpt-5', messages: 2, status: 'idle', created_at: '2026-11-20T10:00:03.000Z', updated_at: '2026-11-20T10:00:03.000Z' },
        { id: 's_chat0001', title: 'Plan the kiwi harvest', source: 'cli', provider: 'openai', model: 'gpt-5', messages: 4, status: 'idle', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:02.000Z' },
      ],
      total: 4,
      scan_limited: false,
    });
    // The same rows as the CLI prints.
    const cli = await runIris(['sessions', 'list', '--json'], { home });
    expect((all.json as { sessions: unknown[] }).sessions).toEqual(JSON.parse(cli.stdout));

    expect(await ids('?tab=chats')).toEqual({ ids: ['s_dash0001', 's_chat0001'], total: 2 });
    expect(await ids('?tab=automation')).toEqual({ ids: ['s_tele0001', 's_hook0001'], total: 2 });
    expect(await ids('?tab=automation&source=webhook:')).toEqual({ ids: ['s_hook0001'], total: 1 });
    expect(await ids('?source=webhook')).toEqual({ ids: ['s_hook0001'], total: 1 });
    expect(await ids('?source=webhook:pr-review')).toEqual({ ids: ['s_hook0001'], total: 1 });
    expect(await ids('?source=webhook:pr')).toEqual({ ids: [], total: 0 });
    expect(await ids('?tab=all&limit=2&offset=1')).toEqual({ ids: ['s_tele0001', 's_hook0001'], total: 4 });
  });

  it('searches titles and message text, case-insensitively, with % and _ literal', async () => {
    expect(await ids('?q=KIWI')).toEqual({ ids: ['s_chat0001'], total: 1 });
    expect(await ids('?q=banana')).toEqual({ ids: ['s_hook0001'], total: 1 });
    expect(await ids('?q=banana&tab=chats')).toEqual({ ids: [], total: 0 });
    expect(await ids('?q=October')).toEqual({ ids: ['s_chat0001'], total: 1 });
    expect(await ids(`?q=${encodeURIComponent('100%')}`)).toEqual({ ids: ['s_tele0001'], total: 1 });
    expect(await ids(`?q=${encodeURIComponent('10_%')}`)).toEqual({ ids: [], total: 0 });
    expect(await ids('?q=_literal_')).toEqual({ ids: ['s_tele0001'], total: 1 });
  });

  it('400 with a message for each bad parameter', async () => {
    expect(await api('/api/sessions?tab=mine')).toMatchObject({ status: 400, json: { error: 'tab must be chats, automation or all (got "mine")' } });
    expect(await api('/api/sessions?limit=0')).toMatchObject({ status: 400, json: { error: 'limit must be a whole number from 1 to 200 (got "0")' } });
    expect(await api('/api/sessions?offset=x')).toMatchObject({ status: 400, json: { error: `offset must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (got "x")` } });
    expect(await api('/api/sessions?order=new')).toMatchObject({ status: 400, json: { error: 'unknown parameter "order" (known: tab, q, source, limit, offset)' } });
    expect(await api(`/api/sessions?q=${'a'.repeat(201)}`)).toMatchObject({ status: 400, json: { error: 'q is longer than 200 characters' } });
    expect(await api('/api/sessions/s_chat0001/export?format=pdf')).toMatchObject({ status: 400, json: { error: 'format must be md or json (got "pdf")' } });
  });

  it('a transcript: the row, messages with tool calls folded, the model, tokens and cost per turn and in total', async () => {
    const answer = await api('/api/sessions/s_chat0001');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      session: { id: 's_chat0001', title: 'Plan the kiwi harvest', source: 'cli', provider: 'openai', model: 'gpt-5', messages: 4, status: 'idle', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:02.000Z' },
      messages: [
        { turn: 0, at: '2026-11-20T10:00:01.000Z', role: 'user', text: 'When do kiwis ripen?' },
        {
          turn: 0,
          at: '2026-11-20T10:00:02.000Z',
          role: 'assistant',
          text: 'Let me check.',
          tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes/orchard.md"}', result: 'Harvest: late October', ok: true, result_chars: 21 }],
        },
        { turn: 0, at: '2026-11-20T10:00:02.000Z', role: 'assistant', text: 'In late October.', tool_calls: [] },
      ],
      turns: [
        {
          turn: 0,
          models: [{ provider: 'openai', model: 'gpt-5' }],
          tasks: ['title_generation'],
          calls: 2,
          input_tokens: 160,
          output_tokens: 35,
          cached_tokens: 0,
          cache_write_tokens: 0,
          cost_usd: 0.002,
          unpriced_calls: 1,
        },
      ],
      totals: { calls: 2, input_tokens: 160, output_tokens: 35, cached_tokens: 0, cache_write_tokens: 0, cost_usd: 0.002, unpriced_calls: 1 },
    });
  });

  it('names a session by id, unique prefix or title; 404 and 409 say why', async () => {
    expect(((await api('/api/sessions/s_hook')).json as { session: { id: string } }).session.id).toBe('s_hook0001');
    expect(((await api(`/api/sessions/${encodeURIComponent('PR 42 review')}`)).json as { session: { id: string } }).session.id).toBe('s_hook0001');
    expect(await api('/api/sessions/nothing-like-it')).toMatchObject({ status: 404, json: { error: 'no session with the id or title "nothing-like-it"' } });
    expect(await api('/api/sessions/s_')).toMatchObject({ status: 404, json: { error: 'no session with the id or title "s_" (an id prefix needs at least 4 characters)' } });
    const store = await openSqliteStore(join(home, 'state.db'));
    await store.createSession({ id: 's_tele0002', source: 'telegram', provider: 'openai', model: 'gpt-5' });
    await store.close();
    expect(await api('/api/sessions/s_tele')).toMatchObject({
      status: 409,
      json: { error: '"s_tele" is the start of more than one session id (s_tele0002, s_tele0001); give more of the id' },
    });
  });

  it('rename: the CLI body, 400 for a bad body, audited', async () => {
    expect(await api('/api/sessions/s_chat0001', { method: 'PATCH', body: { title: '  Kiwi\n plan ' } })).toMatchObject({
      status: 200,
      json: { id: 's_chat0001', title: 'Kiwi plan', previous_title: 'Plan the kiwi harvest' },
    });
    expect((JSON.parse((await runIris(['sessions', 'show', 's_chat0001', '--json'], { home })).stdout) as { session: { title: string } }).session.title).toBe('Kiwi plan');
    expect(await api('/api/sessions/s_chat0001', { method: 'PATCH', body: { title: ' ' } })).toMatchObject({ status: 400, json: { error: 'the new title is empty' } });
    expect(await api('/api/sessions/s_chat0001', { method: 'PATCH', body: { name: 'x' } })).toMatchObject({ status: 400, json: { error: 'unknown field "name" (only title)' } });
    expect(await api('/api/sessions/s_chat0001', { method: 'PATCH', body: ['x'] })).toMatchObject({ status: 400, json: { error: 'send a JSON object: {"title": "<new title>"}' } });
    expect(await api('/api/sessions/s_chat0001', { method: 'PATCH', raw: '{nope' })).toMatchObject({ status: 400, json: { error: 'the body is not JSON' } });
    expect(await api('/api/sessions/s_gone', { method: 'PATCH', body: { title: 'x' } })).toMatchObject({ status: 404 });
    expect(await audit()).toEqual([
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_chat0001', ok: true },
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_chat0001', ok: false, reason: '400: the new title is empty' },
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_chat0001', ok: false, reason: '400: unknown field "name" (only title)' },
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_chat0001', ok: false, reason: '400: send a JSON object: {"title": "<new title>"}' },
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_chat0001', ok: false, reason: '400: the body is not JSON' },
      { actor: 'local', from: '127.0.0.1', action: 'session.rename', target: 's_gone', ok: false, reason: '404: no session with the id or title "s_gone"' },
    ]);
  });

  it('delete: 409 while running, then gone (404), audited; its usage stays counted', async () => {
    const store = await openSqliteStore(join(home, 'state.db'));
    await store.updateSession('s_chat0001', { status: 'running' });
    await store.close();
    expect(await api('/api/sessions/s_chat0001', { method: 'DELETE' })).toMatchObject({
      status: 409,
      json: { error: 'session s_chat0001 "Plan the kiwi harvest" is running; it can be deleted once its run ends' },
    });
    const reopened = await openSqliteStore(join(home, 'state.db'));
    await reopened.updateSession('s_chat0001', { status: 'idle' });
    await reopened.close();
    const before = JSON.parse((await runIris(['usage', '--json'], { home })).stdout) as unknown;
    expect(await api('/api/sessions/s_chat0001', { method: 'DELETE' })).toMatchObject({ status: 200, json: { deleted: ['s_chat0001'] } });
    expect(await api('/api/sessions/s_chat0001')).toMatchObject({ status: 404 });
    expect(JSON.parse((await runIris(['usage', '--json'], { home })).stdout)).toEqual(before);
    expect(await audit()).toEqual([
      {
        actor: 'local',
        from: '127.0.0.1',
        action: 'session.delete',
        target: 's_chat0001',
        ok: false,
        reason: '409: session s_chat0001 "Plan the kiwi harvest" is running; it can be deleted once its run ends',
      },
      { actor: 'local', from: '127.0.0.1', action: 'session.delete', target: 's_chat0001', ok: true },
    ]);
  });

  it('export: byte for byte what iris sessions export prints, as an attachment', async () => {
    for (const format of ['md', 'json'] as const) {
      const answer = await api(`/api/sessions/s_chat0001/export?format=${format}`);
      const cli = await runIris(['sessions', 'export', 's_chat0001', '--format', format], { home });
      expect(cli.code).toBe(0);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(cli.stdout);
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="iris-session-s_chat0001.${format}"`);
      expect(answer.headers.get('content-type')).toBe(format === 'md' ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8');
    }
    expect((await api('/api/sessions/s_chat0001/export')).text).toBe((await runIris(['sessions', 'export', 's_chat0001'], { home })).stdout);
    expect(await api('/api/sessions/s_nope/export')).toMatchObject({ status: 404 });
  });
});
