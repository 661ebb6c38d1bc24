// The Chat page's API over real HTTP: `bin/iris dashboard` as a subprocess, the fake model
// server in this process. Token and body checks, a run streamed as exact SSE frames, 409 while it
// runs, Stop, /model for one session only, an open chat keeping its model when the main model
// changes, and approvals (manual, and smart with the approval model's risk) answered over the API.
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { openChatStream, type ChatStreamReader } from '../helpers/chat-stream.js';
import { startDashboardProcess, type DashboardProcess } from '../helpers/dashboard.js';
import { makeTempDir, removeDir, runIris } from '../helpers/iris.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let workspace: string;
let dash: DashboardProcess | undefined;
const streams: ChatStreamReader[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  workspace = join(dir, 'work');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await dash?.stop();
  dash = undefined;
  await removeDir(dir);
});

const CONFIG = (approval: string) => `# mine\nmodel:\n  provider: openai\n  default: main-m\napproval_mode: ${approval}\nagent:\n  workspace: WORKSPACE\n`;

async function start(approval = 'off', extra = ''): Promise<DashboardProcess> {
  await writeFile(join(home, 'config.yaml'), CONFIG(approval).replace('WORKSPACE', workspace) + extra, { mode: 0o600 });
  dash = await startDashboardProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
  return dash;
}

type Answer = { status: number; json: Record<string, unknown> };

async function api(path: string, init: { body?: unknown; raw?: string; token?: string | null; type?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token !== null) headers['x-service-session-token'] = init.token ?? dash!.token;
  const hasBody = init.body !== undefined || init.raw !== undefined;
  if (hasBody) headers['content-type'] = init.type ?? 'application/json';
  const response = await fetch(`${dash!.url}${path}`, {
    method: hasBody ? 'POST' : 'GET',
    headers,
    ...(hasBody ? { body: init.raw ?? JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function newChat(): Promise<string> {
  const created = await api('/api/chat/sessions', { body: {} });
  expect(created.status).toBe(201);
  return (created.json.session as { id: string }).id;
}

async function watch(id: string): Promise<ChatStreamReader> {
  const stream = await openChatStream(dash!.url, dash!.token, id);
  streams.push(stream);
  return stream;
}

const ended = (frame: { event: string }) => ['done', 'error', 'stopped'].includes(frame.event);

describe('the chat API', { timeout: 30_000 }, () => {
  it('needs the token on every endpoint', async () => {
    await start();
    for (const [path, body] of [
      ['/api/chat/sessions', undefined],
      ['/api/chat/sessions', {}],
      ['/api/chat/sessions/s_x', undefined],
      ['/api/chat/sessions/s_x/messages', { text: 'hi' }],
      ['/api/chat/sessions/s_x/events', undefined],
      ['/api/chat/sessions/s_x/stop', {}],
      ['/api/chat/approvals/a1', { decision: 'approve' }],
    ] as const) {
      expect(await api(path, { body, token: null }), path).toEqual({ status: 401, json: { error: 'Unauthorized' } });
    }
  });

  it('creates a dashboard session on the main model and reads it back; 404 for an unknown one', async () => {
    await start();
    const created = await api('/api/chat/sessions', { body: {} });
    expect(created).toMatchObject({ status: 201, json: { model: { provider: 'openai', model: 'main-m' }, running: false } });
    const session = created.json.session as Record<string, unknown>;
    expect(session).toMatchObject({ source: 'dashboard', title: null, provider: 'openai', model: 'main-m', status: 'idle' });
    expect(await api(`/api/chat/sessions/${String(session.id)}`)).toEqual({ status: 200, json: created.json });
    expect(await api('/api/chat/sessions/s_nothere')).toEqual({ status: 404, json: { error: 'no session s_nothere' } });
    const list = await api('/api/chat/sessions');
    expect((list.json.sessions as Array<{ id: string; messages: number }>).map((s) => [s.id, s.messages])).toEqual([[session.id, 0]]);
  });

  it('answers 400 for bad bodies and for what is not JSON, 415 for another type', async () => {
    await start();
    const id = await newChat();
    const post = (body: unknown) => api(`/api/chat/sessions/${id}/messages`, { body });
    expect(await post({})).toEqual({ status: 400, json: { error: 'the body must be a JSON object {"text": "<message>"}' } });
    expect(await post({ text: 42 })).toEqual({ status: 400, json: { error: 'the body must be a JSON object {"text": "<message>"}' } });
    expect(await post({ text: ' \n ' })).toEqual({ status: 400, json: { error: 'text is empty: type a message' } });
    expect(await post({ text: 'x'.repeat(20_001) })).toEqual({ status: 400, json: { error: 'text is 20001 characters; the limit is 20000' } });
    expect(await api(`/api/chat/sessions/${id}/messages`, { raw: '{nope' })).toEqual({ status: 400, json: { error: 'the body is not JSON' } });
    expect((await api(`/api/chat/sessions/${id}/messages`, { raw: 'hi', type: 'text/plain' })).status).toBe(415);
    expect(await api('/api/chat/approvals/a1', { body: { decision: 'maybe' } })).toEqual({
      status: 400,
      json: { error: 'the body must be a JSON object {"decision": "approve" | "deny"}' },
    });
    expect(await api('/api/chat/approvals/a1', { body: { decision: 'approve' } })).toEqual({
      status: 404,
      json: { error: 'no approval waits with that id (answered, timed out or the run ended)' },
    });
    expect(await api(`/api/chat/sessions/${id}/stop`, { body: {} })).toEqual({ status: 409, json: { error: 'nothing is running in this chat' } });
  });

  it('streams a run as SSE frames, refuses a second message with 409, and Stop keeps what was said', async () => {
    await start();
    const id = await newChat();
    const stream = await watch(id);
    await stream.until((f) => f.event === 'snapshot');
    fake.script('main-m', { kind: 'hang', deltas: ['Hello ', 'wor'] });
    const sent = await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'say hello' } });
    expect(sent.status).toBe(202);
    const runId = sent.json.run as string;
    await fake.hanging();
    await stream.until((f) => f.event === 'text' && f.data.delta === 'wor');
    expect(await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'more' } })).toEqual({
      status: 409,
      json: { error: 'this chat is still answering: wait, or Stop it first' },
    });
    expect((await api(`/api/chat/sessions/${id}`)).json.running).toBe(true);
    // The profile cannot be switched from under a chat that is answering (its store would close).
    expect(await api('/api/profiles/switch', { body: { name: 'default' } })).toEqual({
      status: 409,
      json: { error: 'a chat is still answering: stop it on the Chat page, then switch' },
    });

    // A second tab now gets the history and the answer so far.
    const late = await watch(id);
    const snapshot = await late.until((f) => f.event === 'snapshot');
    expect(snapshot.data).toMatchObject({
      running: true,
      runId,
      items: [
        { kind: 'user', text: 'say hello' },
        { kind: 'assistant', text: 'Hello wor' },
      ],
    });

    expect(await api(`/api/chat/sessions/${id}/stop`, { body: {} })).toEqual({ status: 200, json: { stopped: true } });
    await stream.until(ended);
    expect(stream.raw().split('\n\n').slice(1).join('\n\n')).toBe(
      [
        `event: run_start\ndata: {"type":"run_start","runId":"${runId}","text":"say hello"}`,
        'event: text\ndata: {"type":"text","delta":"Hello "}',
        'event: text\ndata: {"type":"text","delta":"wor"}',
        'event: stopped\ndata: {"type":"stopped"}',
        '',
      ].join('\n\n'),
    );
    expect(stream.raw().startsWith(`event: snapshot\ndata: {"session":{"id":"${id}",`)).toBe(true);
    await late.until(ended);

    // The store is the truth after the run: what was said stays, and the session can go on.
    const after = await watch(id);
    expect((await after.until((f) => f.event === 'snapshot')).data).toMatchObject({
      running: false,
      runId: null,
      items: [
        { kind: 'user', text: 'say hello' },
        { kind: 'assistant', text: 'Hello wor' },
      ],
    });
    expect((await api(`/api/chat/sessions/${id}`)).json).toMatchObject({ running: false, session: { status: 'interrupted' } });
  });

  it('stops a running chat when the dashboard shuts down, and the session says so', async () => {
    await start();
    const id = await newChat();
    fake.script('main-m', { kind: 'hang', deltas: ['Half an '] });
    expect((await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'go on' } })).status).toBe(202);
    await fake.hanging();
    const stream = await watch(id);
    await stream.until((f) => f.event === 'snapshot' && f.data.running === true);
    const began = Date.now();
    expect(await dash!.stop()).toBe(0);
    expect(Date.now() - began).toBeLessThan(5_000);
    dash = undefined;
    const listed = JSON.parse((await runIris(['sessions', 'list', '--json'], { home })).stdout) as Array<{ id: string; status: string; messages: number }>;
    expect(listed).toMatchObject([{ id, status: 'interrupted', messages: 2 }]);
  });

  it('runs a tool, ends with done, and the stored session says the same; the session and its usage count as dashboard', async () => {
    await start('off');
    const id = await newChat();
    const stream = await watch(id);
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo from-the-shell' } }] },
      { kind: 'text', deltas: ['The shell ', 'said hi.'] },
      { kind: 'text', deltas: ['Shell greeting'] },
    );
    expect((await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'use the shell' } })).status).toBe(202);
    const end = await stream.until(ended);
    expect(end).toEqual({ event: 'done', data: { type: 'done', reason: 'done' } });
    const toolEnd = stream.frames.find((f) => f.event === 'tool_end');
    expect(toolEnd?.data).toMatchObject({ type: 'tool_end', id: 'c1', ok: true });
    expect(String(toolEnd?.data.result)).toContain('from-the-shell');
    const live = stream.frames.filter((f) => f.event !== 'snapshot' && f.event !== 'notice').map((f) => f.event);
    expect(live).toEqual(['run_start', 'tool_start', 'tool_end', 'text', 'text', 'done']);

    const reread = await watch(id);
    const items = (await reread.until((f) => f.event === 'snapshot')).data.items as Array<Record<string, unknown>>;
    expect(items.map((item) => item.kind)).toEqual(['user', 'tool', 'assistant']);
    expect(items[2]).toEqual({ kind: 'assistant', text: 'The shell said hi.' });
    const listed = JSON.parse((await runIris(['sessions', 'list', '--json'], { home })).stdout) as Array<{ id: string; source: string; title: string }>;
    expect(listed).toMatchObject([{ id, source: 'dashboard', title: 'Shell greeting' }]);
    // The two main calls and the title call all count under the dashboard (DECISIONS § Usage ledger).
    const bySource = (await runIris(['usage', '--by', 'source', '--json'], { home })).stdout;
    expect(bySource.match(/"source": ?"[^"]*"/g)).toEqual([expect.stringMatching(/"source": ?"dashboard"/)]);
  });

  it('/model switches only this session; the other session and config.yaml keep theirs', async () => {
    await start();
    const first = await newChat();
    const second = await newChat();
    const switched = await api(`/api/chat/sessions/${first}/messages`, { body: { text: '/model gpt-4.1' } });
    expect(switched.status).toBe(200);
    expect(switched.json).toMatchObject({ model: { provider: 'openai', model: 'gpt-4.1' }, running: false });
    expect(String(switched.json.reply)).toMatch(/^session now on openai · gpt-4\.1\n/);
    expect((await api(`/api/chat/sessions/${first}`)).json.model).toEqual({ provider: 'openai', model: 'gpt-4.1' });
    expect((await api(`/api/chat/sessions/${second}`)).json.model).toEqual({ provider: 'openai', model: 'main-m' });
    expect(await readFile(join(home, 'config.yaml'), 'utf8')).toBe(CONFIG('off').replace('WORKSPACE', workspace));
    const help = await api(`/api/chat/sessions/${first}/messages`, { body: { text: '/new' } });
    expect(help).toEqual({ status: 200, json: { reply: "/new is the CLI's; here, New chat and Recent chats (above) start or open another chat" } });

    const stream = await watch(first);
    await api(`/api/chat/sessions/${first}/messages`, { body: { text: 'hi' } });
    await stream.until(ended);
    expect(fake.requests.map((r) => (r.body as { model?: string }).model)[0]).toBe('gpt-4.1');
  });

  it('an open chat keeps its model when the Models page changes the main model; a new chat takes the new one', async () => {
    await start();
    const open = await newChat();
    const set = await api('/api/model/set', { body: { scope: 'main', provider: 'openai', model: 'gpt-4.1' } });
    expect(set).toMatchObject({ status: 200, json: { ok: true, scope: 'main', provider: 'openai', model: 'gpt-4.1' } });
    expect((await api(`/api/chat/sessions/${open}`)).json.model).toEqual({ provider: 'openai', model: 'main-m' });
    const fresh = await newChat();
    expect((await api(`/api/chat/sessions/${fresh}`)).json.model).toEqual({ provider: 'openai', model: 'gpt-4.1' });

    // Each chat's turn starts with its main call (the title call comes after it, within the turn).
    const firstModels: unknown[] = [];
    for (const id of [open, fresh]) {
      const stream = await watch(id);
      const before = fake.requests.length;
      expect((await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'hi' } })).status).toBe(202);
      await stream.until(ended);
      firstModels.push((fake.requests[before]?.body as { model?: string } | undefined)?.model);
    }
    expect(firstModels).toEqual(['main-m', 'gpt-4.1']);
  });

  it('under approval_mode smart, shows the risk from the approval model and waits for a person only when it is not low', async () => {
    await start('smart', 'auxiliary:\n  approval: { provider: openai, model: approval-m }\n');
    const id = await newChat();
    const stream = await watch(id);
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch scored-low' } }] },
      { kind: 'tool_calls', calls: [{ id: 'c2', name: 'run_command', arguments: { command: 'touch scored-high' } }] },
      { kind: 'text', deltas: ['Both made.'] },
    );
    fake.script('approval-m', { kind: 'text', deltas: ['{"risk":"low","reason":"makes an empty file"}'] }, { kind: 'text', deltas: ['{"risk":"high","reason":"writes where it should not"}'] });
    await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'make two files' } });
    const asked = await stream.until((f) => f.event === 'approval');
    // The low one ran without asking; only the high one waits, with the model's risk and reason.
    expect(asked.data).toMatchObject({ type: 'approval', command: 'touch scored-high', cwd: workspace, risk: { level: 'high', source: 'model', reasons: ['writes where it should not'] } });
    await access(join(workspace, 'scored-low'));
    await expect(access(join(workspace, 'scored-high'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await api(`/api/chat/approvals/${String(asked.data.id)}`, { body: { decision: 'approve' } })).toEqual({ status: 200, json: { approved: true } });
    expect(await stream.until(ended)).toEqual({ event: 'done', data: { type: 'done', reason: 'done' } });
    expect(stream.frames.filter((f) => f.event === 'approval').map((f) => f.data.command)).toEqual(['touch scored-high']);
    await access(join(workspace, 'scored-high'));
    expect(fake.requests.filter((r) => (r.body as { model?: string }).model === 'approval-m')).toHaveLength(2);
  });

  it('asks for approval in the stream under approval_mode manual and runs the command once approved; audits it', async () => {
    await start('manual');
    const id = await newChat();
    const stream = await watch(id);
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch approved-file' } }] },
      { kind: 'tool_calls', calls: [{ id: 'c2', name: 'run_command', arguments: { command: 'touch denied-file' } }] },
      { kind: 'text', deltas: ['One of two.'] },
    );
    await api(`/api/chat/sessions/${id}/messages`, { body: { text: 'make files' } });
    const first = await stream.until((f) => f.event === 'approval');
    expect(first.data).toMatchObject({ type: 'approval', command: 'touch approved-file', cwd: workspace, risk: { level: 'low', source: 'default' } });
    expect(await api(`/api/chat/approvals/${String(first.data.id)}`, { body: { decision: 'approve' } })).toEqual({ status: 200, json: { approved: true } });
    const second = await stream.until((f) => f.event === 'approval' && f.data.command === 'touch denied-file');
    expect(await api(`/api/chat/approvals/${String(second.data.id)}`, { body: { decision: 'deny' } })).toEqual({ status: 200, json: { approved: false } });
    await stream.until(ended);
    expect(stream.frames.filter((f) => f.event === 'approval_done').map((f) => f.data)).toEqual([
      { type: 'approval_done', id: first.data.id, approved: true, reason: 'approved in the dashboard' },
      { type: 'approval_done', id: second.data.id, approved: false, reason: 'denied in the dashboard' },
    ]);
    await access(join(workspace, 'approved-file'));
    await expect(access(join(workspace, 'denied-file'))).rejects.toMatchObject({ code: 'ENOENT' });
    const audit = (await readFile(join(home, 'logs', 'audit.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.filter((entry) => entry.action === 'chat.approve').map((entry) => [entry.target, entry.ok])).toEqual([
      [`${String(first.data.id)} (approve, session ${id})`, true],
      [`${String(second.data.id)} (deny, session ${id})`, true],
    ]);
  });
});
