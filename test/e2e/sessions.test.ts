// Finding a session again: `iris chat -q` names its session, `--session`/`-c` resume it, and
// `iris sessions list|show|rename|delete|prune|export` work on a store seeded with real runs.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ID_PATTERN } from '../../src/store/ids.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, removeDir, runIris, runIrisWithInput, type RunResult } from '../helpers/iris.js';
import { startPty } from '../helpers/pty.js';
import { parseJson } from '../helpers/documents.js';

let fake: FakeUpstream;
let dir: string;
let home: string;
let workspace: string;
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
  await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: main-m\nagent:\n  workspace: ${workspace}\napproval_mode: off\n`, { mode: 0o600 });
});
afterEach(() => removeDir(dir));

const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const iris = (...args: string[]) => runIris(args, { home, env: env() });
const statePath = () => join(home, 'state.db');

/** The last line on stderr: `session: <id>` after every one-shot turn. */
function sessionIdFrom(result: RunResult): string {
  const lines = result.stderr.trimEnd().split('\n');
  const match = /^session: (\S+)$/.exec(lines.at(-1) ?? '');
  expect(match, `stderr was:\n${result.stderr}`).not.toBeNull();
  return match![1]!;
}

/** A one-shot turn whose answer and title are scripted; returns its session id. */
async function chatTurn(prompt: string, answer: string, title: string, extra: string[] = []): Promise<string> {
  fake.script('main-m', { kind: 'text', deltas: [answer] }, { kind: 'text', deltas: [title] });
  const result = await iris('chat', '-q', prompt, ...extra);
  expect(result).toMatchObject({ code: 0, stdout: `${answer}\n` });
  return sessionIdFrom(result);
}

async function withStore<T>(work: (store: Store) => Promise<T>, now?: () => number): Promise<T> {
  const store = await openSqliteStore(statePath(), now ? { now } : {});
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

type ChatBody = { messages: Array<{ role: string; content: unknown }> };
const lastBody = () => fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as ChatBody;
const conversation = (body: ChatBody) => body.messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);

describe('iris chat names and resumes its session', () => {
  it('chat -q writes the session id last on stderr, and --session <id> carries the first exchange', async () => {
    const id = await chatTurn('remember the number 7', 'Noted: 7.', 'Number to remember');
    expect(id).toMatch(SESSION_ID_PATTERN);
    fake.reset();
    fake.script('main-m', { kind: 'text', deltas: ['It was 7.'] });
    const second = await iris('chat', '-q', 'which number?', '--session', id);
    expect(second).toMatchObject({ code: 0, stdout: 'It was 7.\n' });
    expect(sessionIdFrom(second)).toBe(id);
    expect(conversation(lastBody())).toEqual([
      ['user', 'remember the number 7'],
      ['assistant', 'Noted: 7.'],
      ['user', 'which number?'],
    ]);
  });

  it('--session also takes a unique id prefix and an exact title', async () => {
    const id = await chatTurn('first', 'one', 'Alpha work');
    fake.script('main-m', { kind: 'text', deltas: ['by prefix'] });
    const byPrefix = await iris('chat', '-q', 'again', '--session', id.slice(0, 6));
    expect(byPrefix).toMatchObject({ code: 0, stdout: 'by prefix\n' });
    expect(sessionIdFrom(byPrefix)).toBe(id);
    fake.script('main-m', { kind: 'text', deltas: ['by title'] });
    const byTitle = await iris('chat', '-q', 'and again', '--session', 'Alpha work');
    expect(byTitle).toMatchObject({ code: 0, stdout: 'by title\n' });
    expect(sessionIdFrom(byTitle)).toBe(id);
    expect(conversation(lastBody()).map(([, content]) => content)).toEqual(['first', 'one', 'again', 'by prefix', 'and again']);
  });

  it('an unknown --session exits 1 with a clear message and calls no model', async () => {
    await chatTurn('hi', 'hello', 'Greeting');
    fake.reset();
    const result = await iris('chat', '-q', 'hi', '--session', 's_nothere00000');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('iris: error: no session with the id or title "s_nothere00000"; iris sessions list shows them\n');
    expect(fake.requests).toEqual([]);
  });

  it('-c continues the newest CLI session, never a newer webhook one', async () => {
    const older = await chatTurn('cli one', 'answer one', 'Older');
    const newer = await chatTurn('cli two', 'answer two', 'Newer');
    // A webhook session active after both.
    const webhook = await withStore((store) => store.createSession({ source: 'webhook:pr', provider: 'openai', model: 'main-m' }), () => Date.now() + 60_000);
    fake.reset();
    fake.script('main-m', { kind: 'text', deltas: ['continued'] });
    const result = await iris('chat', '-q', 'go on', '-c');
    expect(result).toMatchObject({ code: 0, stdout: 'continued\n' });
    expect(sessionIdFrom(result)).toBe(newer);
    expect(conversation(lastBody()).map(([, content]) => content)).toEqual(['cli two', 'answer two', 'go on']);
    await withStore(async (store) => {
      expect(await store.loadMessages(webhook.id)).toEqual([]);
      expect((await store.loadMessages(older)).length).toBe(2);
    });
  });

  it('-c with no CLI session exits 1; -c with --session is a usage error', async () => {
    await withStore((store) => store.createSession({ source: 'webhook:pr', provider: 'openai', model: 'main-m' }));
    const none = await iris('chat', '-q', 'hi', '-c');
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('iris: error: there is no CLI session to continue yet; iris chat starts one\n');
    const both = await iris('chat', '-q', 'hi', '-c', '--session', 'x');
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('iris: error: --session and --continue both choose the session; give one\n');
    expect(fake.requests).toEqual([]);
  });

  it('-q --json prints one object with the usage of every call of the turn, then the session line', async () => {
    await writeFile(join(home, 'config.yaml'), `model:\n  provider: openai\n  default: gpt-4.1\nagent:\n  workspace: ${workspace}\n`, { mode: 0o600 });
    fake.script('gpt-4.1', { kind: 'text', deltas: ['The answer.'], usage: { input: 1000, output: 200 } }, { kind: 'text', deltas: ['A title'] });
    const result = await iris('chat', '-q', 'question', '--json');
    expect(result.code).toBe(0);
    const id = sessionIdFrom(result);
    // gpt-4.1: $2 in, $8 out per million; the title call used the fake's default 10 in, 5 out.
    expect(JSON.parse(result.stdout)).toEqual({
      session_id: id,
      answer: 'The answer.',
      provider: 'openai',
      model: 'gpt-4.1',
      usage: { input_tokens: 1010, output_tokens: 205, cost_usd: 0.00366 },
      exit: 'ok',
    });
  });

  it('-q --json reports a failed turn as exit "error" (exit code 1), still naming the session', async () => {
    fake.script('main-m', { kind: 'error', status: 400, body: { error: { message: 'bad request body', type: 'invalid_request_error' } } });
    const result = await iris('chat', '-q', 'hi', '--json');
    expect(result.code).toBe(1);
    const id = sessionIdFrom(result);
    expect(result.stderr).toBe(`iris: error: openai (chat_completions) answered 400: bad request body\nsession: ${id}\n`);
    expect(JSON.parse(result.stdout)).toEqual({
      session_id: id,
      answer: '',
      provider: 'openai',
      model: 'main-m',
      usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      exit: 'error',
      error: 'openai (chat_completions) answered 400: bad request body',
    });
    await withStore(async (store) => expect((await store.getSession(id))?.status).toBe('failed'));
  });

  it('--json without -q is a usage error', async () => {
    const result = await iris('chat', '--json');
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'iris: error: --json needs -q: the interactive chat prints as it goes\n' });
  });
});

describe('the REPL session commands', () => {
  it('/title names the session, /sessions lists it, /resume switches to another', async () => {
    const other = await chatTurn('earlier talk', 'earlier answer', 'Earlier');
    fake.reset();
    fake.script('main-m', { kind: 'text', deltas: ['now answer'] });
    const input = '/title My named session\n/sessions\nnow\n/resume Earlier\n/resume nothing-like-it\n';
    const result = await runIrisWithInput(['chat'], input, { home, env: env() });
    expect(result.code).toBe(0);
    const current = /^iris chat — session (s_\w+) /.exec(result.stdout)?.[1];
    expect(current).toMatch(SESSION_ID_PATTERN);
    expect(result.stdout).toContain(`session ${current} is now titled "My named session"\n`);
    expect(result.stdout).toMatch(new RegExp(`\\* +${current} +My named session +cli +openai · main-m +0 +idle +just now`));
    expect(result.stdout).toMatch(new RegExp(`\\n +${other} +Earlier +cli +openai · main-m +2 +idle +just now`));
    expect(result.stdout).toContain(`resumed session ${other} "Earlier" on openai · main-m (2 messages)\n`);
    expect(result.stdout).toContain('no session with the id or title "nothing-like-it"; iris sessions list shows them\n');
    await withStore(async (store) => {
      // The title given by hand is kept: the first exchange does not name it again.
      expect(await store.getSession(current!)).toMatchObject({ title: 'My named session' });
      expect((await store.loadMessages(current!)).map((m) => m.content)).toEqual(['now', 'now answer']);
    });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('iris sessions', () => {
  /** Two CLI runs (one with a tool call) and a webhook session, at known times. */
  async function seed() {
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo seeded' } }] },
      { kind: 'text', deltas: ['The shell said seeded.'] },
      { kind: 'text', deltas: ['Shell check'] },
    );
    const tool = await iris('chat', '-q', 'run echo');
    expect(tool.code).toBe(0);
    const toolId = sessionIdFrom(tool);
    const plain = await chatTurn('plain question', 'plain answer', 'Plain talk');
    const hook = await withStore(async (store) => {
      const created = await store.createSession({ source: 'webhook:github-pr', provider: 'openai', model: 'main-m', title: 'Review PR #12' });
      await store.appendMessages(created.id, [{ role: 'user', content: 'review it' }, { role: 'assistant', content: 'LGTM' }]);
      return created;
    }, () => Date.now() + 60_000);
    return { toolId, plainId: plain, hookId: hook.id };
  }

  it('list --json: every session newest first, in the documented shape', async () => {
    const { toolId, plainId, hookId } = await seed();
    const result = await iris('sessions', 'list', '--json');
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.id)).toEqual([hookId, plainId, toolId]);
    expect(rows.map((r) => Object.keys(r))).toEqual(Array(3).fill(['id', 'title', 'source', 'provider', 'model', 'messages', 'status', 'created_at', 'updated_at']));
    expect(rows[2]).toMatchObject({ title: 'Shell check', source: 'cli', provider: 'openai', model: 'main-m', messages: 4, status: 'idle' });
    expect(rows[1]).toMatchObject({ title: 'Plain talk', source: 'cli', messages: 2, status: 'idle' });
    expect(rows[0]).toMatchObject({ title: 'Review PR #12', source: 'webhook:github-pr', messages: 2 });
    for (const row of rows) expect(new Date(row.updated_at as string).toISOString()).toBe(row.updated_at);
  });

  it('list narrows by --source and --limit, and prints a table', async () => {
    const { toolId, plainId, hookId } = await seed();
    const ids = async (...args: string[]) => (JSON.parse((await iris('sessions', 'list', '--json', ...args)).stdout) as Array<{ id: string }>).map((r) => r.id);
    expect(await ids('--source', 'cli')).toEqual([plainId, toolId]);
    expect(await ids('--source', 'webhook')).toEqual([hookId]);
    expect(await ids('--source', 'webhook:github-pr')).toEqual([hookId]);
    expect(await ids('--source', 'telegram')).toEqual([]);
    expect(await ids('--limit', '1')).toEqual([hookId]);
    const table = await iris('sessions', 'list', '--source', 'cli');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +title +source +model +messages +status +last active$/);
    expect(lines[1]).toMatch(new RegExp(`^${plainId} +Plain talk +cli +openai · main-m +2 +idle +just now$`));
    expect(lines[2]).toMatch(new RegExp(`^${toolId} +Shell check +cli +openai · main-m +4 +idle +just now$`));
    expect(lines).toHaveLength(3);
    const bad = await iris('sessions', 'list', '--limit', '0');
    expect(bad).toMatchObject({ code: 2, stderr: 'iris: error: --limit must be a positive whole number (got "0")\n' });
  });

  it('show prints the transcript with tool calls in short form; --json gives the full messages', async () => {
    const { toolId } = await seed();
    const text = await iris('sessions', 'show', toolId);
    expect(text.code).toBe(0);
    const body = text.stdout.split('\n').slice(3).join('\n');
    expect(text.stdout.split('\n')[0]).toBe(`session ${toolId} — Shell check`);
    expect(text.stdout.split('\n')[1]).toBe('  cli · openai · main-m · idle · 4 messages');
    expect(body).toBe('\nuser: run echo\n\n  → run_command {"command":"echo seeded"}\n\n  ← run_command: exit code: 0 (4 lines)\n\nassistant: The shell said seeded.\n');
    const json = await iris('sessions', 'show', toolId, '--json');
    const parsed = JSON.parse(json.stdout) as { session: { id: string; messages: number }; messages: unknown[] };
    expect(parsed.session).toMatchObject({ id: toolId, messages: 4 });
    await withStore(async (store) => expect(parsed.messages).toEqual(await store.loadMessages(toolId)));
  });

  it('an unknown or ambiguous name exits 1 and says which', async () => {
    await withStore(async (store) => {
      await store.createSession({ id: 's_abcd00000000', source: 'cli', provider: 'openai', model: 'm' });
      await store.createSession({ id: 's_abcd11111111', source: 'cli', provider: 'openai', model: 'm' });
    });
    const unknown = await iris('sessions', 'show', 'nope-nope');
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'iris: error: no session with the id or title "nope-nope"; iris sessions list shows them\n' });
    const ambiguous = await iris('sessions', 'show', 's_abcd');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/^iris: error: "s_abcd" is the start of more than one session id \((s_abcd00000000, s_abcd11111111|s_abcd11111111, s_abcd00000000)\); give more of the id\n$/);
    const unique = await iris('sessions', 'show', 's_abcd1', '--json');
    expect(parseJson(unique.stdout)?.session?.id).toBe('s_abcd11111111');
    const short = await iris('sessions', 'show', 's_a');
    expect(short).toMatchObject({ code: 1, stderr: 'iris: error: no session with the id or title "s_a" (an id prefix needs at least 4 characters); iris sessions list shows them\n' });
    const emptyHome = await runIris(['sessions', 'show', 'x'], { home: join(dir, 'fresh') });
    expect(emptyHome).toMatchObject({ code: 1, stderr: 'iris: error: no session with the id or title "x": no session has been recorded yet\n' });
  });

  it('rename changes the title, and the new title then names the session', async () => {
    const { plainId } = await seed();
    const renamed = await iris('sessions', 'rename', plainId.slice(0, 8), 'Budget questions');
    expect(renamed).toMatchObject({ code: 0, stdout: `session ${plainId} is now titled "Budget questions"\n` });
    const shown = await iris('sessions', 'show', 'Budget questions', '--json');
    expect(parseJson(shown.stdout).session).toMatchObject({ id: plainId, title: 'Budget questions' });
    const empty = await iris('sessions', 'rename', plainId, '   ');
    expect(empty).toMatchObject({ code: 2, stderr: 'iris: error: the new title is empty\n' });
  });

  it('delete asks first (refusing without a terminal), deletes with --yes, keeps the usage, and never deletes a running session', async () => {
    const { plainId, toolId } = await seed();
    const unasked = await iris('sessions', 'delete', plainId);
    expect(unasked).toMatchObject({ code: 2, stderr: 'iris: error: iris sessions delete asks before removing anything: run it on a terminal, or pass --yes\n' });
    const usageBefore = JSON.parse((await iris('usage', '--json')).stdout) as unknown;
    const deleted = await iris('sessions', 'delete', plainId, '--yes');
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted session ${plainId} "Plain talk"\n` });
    await withStore(async (store) => {
      expect(await store.getSession(plainId)).toBeUndefined();
      expect(await store.loadMessages(plainId)).toEqual([]);
    });
    expect(JSON.parse((await iris('usage', '--json')).stdout)).toEqual(usageBefore);
    const again = await iris('sessions', 'delete', plainId, '--yes');
    expect(again.code).toBe(1);
    await withStore((store) => store.updateSession(toolId, { status: 'running' }));
    const running = await iris('sessions', 'delete', toolId, '--yes');
    expect(running).toMatchObject({ code: 1, stderr: `iris: error: session ${toolId} "Shell check" is running; it can be deleted once its run ends\n` });
    await withStore(async (store) => expect(await store.getSession(toolId)).toMatchObject({ status: 'running' }));
  });

  it('delete on a terminal deletes only on "y"', async () => {
    const { plainId } = await seed();
    const no = startPty([process.execPath, join(process.cwd(), 'bin', 'iris'), 'sessions', 'delete', plainId], { IRIS_HOME: home });
    await no.waitFor(`delete session ${plainId} "Plain talk" and its messages? [y/N]`);
    no.type('n\r');
    expect(await no.exited).toBe(1);
    expect(no.screen()).toContain('nothing deleted');
    await withStore(async (store) => expect(await store.getSession(plainId)).toBeDefined());
    const yes = startPty([process.execPath, join(process.cwd(), 'bin', 'iris'), 'sessions', 'delete', plainId], { IRIS_HOME: home });
    await yes.waitFor('[y/N]');
    yes.type('y\r');
    expect(await yes.exited).toBe(0);
    expect(yes.screen()).toContain(`deleted session ${plainId} "Plain talk"`);
    await withStore(async (store) => expect(await store.getSession(plainId)).toBeUndefined());
  });

  it('prune removes what was last active before the cut, never a running session; 0s removes every idle one', async () => {
    const { toolId, plainId, hookId } = await seed();
    const day = 86_400_000;
    const { oldIdle, oldRunning } = await withStore(async (store) => {
      const idle = await store.createSession({ source: 'cli', provider: 'openai', model: 'main-m', title: 'Old idle' });
      const busy = await store.createSession({ source: 'webhook:github-pr', provider: 'openai', model: 'main-m', title: 'Old running' });
      await store.updateSession(busy.id, { status: 'running' });
      return { oldIdle: idle.id, oldRunning: busy.id };
    }, () => Date.now() - 40 * day);
    const refused = await iris('sessions', 'prune', '--older-than', '30d');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`1 session to remove (not running, last active before `);
    expect(refused.stderr).toContain(`; 1 running session is kept:\n  ${oldIdle} "Old idle" (cli, 0 messages)\n`);
    expect(refused.stderr).toContain('iris: error: iris sessions prune asks before removing anything: run it on a terminal, or pass --yes\n');

    const pruned = await iris('sessions', 'prune', '--older-than', '30d', '--yes');
    expect(pruned).toMatchObject({ code: 0, stdout: 'removed 1 session\n' });
    const left = async () => (JSON.parse((await iris('sessions', 'list', '--json')).stdout) as Array<{ id: string }>).map((r) => r.id).sort();
    expect(await left()).toEqual([toolId, plainId, hookId, oldRunning].sort());

    const all = await iris('sessions', 'prune', '--older-than', '0s', '--yes', '--json');
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual({ deleted: expect.arrayContaining([toolId, plainId, hookId]) as unknown, kept_running: 1 });
    expect((JSON.parse(all.stdout) as { deleted: string[] }).deleted).toHaveLength(3);
    expect(await left()).toEqual([oldRunning]);

    const bad = await iris('sessions', 'prune', '--older-than', '3 days');
    expect(bad).toMatchObject({ code: 2, stderr: 'iris: error: --older-than "3 days" is not a duration (use <n>s|m|h|d|w: 90s, 30m, 12h, 30d, 2w)\n' });
  });

  it('export writes Markdown by default and JSON on request; an unknown format is a usage error', async () => {
    const { toolId } = await seed();
    const md = await iris('sessions', 'export', toolId);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(new RegExp(`^# Shell check\\n\\n- id: \`${toolId}\`\\n- source: cli\\n- model: openai · main-m\\n- status: idle\\n`));
    expect(md.stdout).toContain(
      '\n## User\n\nrun echo\n\n## Assistant\n\nTool call `run_command` (id `c1`):\n\n```json\n{\n  "command": "echo seeded"\n}\n```\n\n## Tool result: run_command\n\n```\nexit code: 0\n',
    );
    expect(md.stdout).toContain('\nseeded\n');
    expect(md.stdout.endsWith('## Assistant\n\nThe shell said seeded.\n')).toBe(true);
    const json = await iris('sessions', 'export', toolId, '--format', 'json');
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse((await iris('sessions', 'show', toolId, '--json')).stdout));
    const bad = await iris('sessions', 'export', toolId, '--format', 'pdf');
    expect(bad).toMatchObject({ code: 2, stdout: '', stderr: 'iris: error: --format must be md or json (got "pdf")\n' });
  });
});
