// `iris chat` as a subprocess against the fake upstream (in this process, on loopback).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { cleanEnv, IRIS_BIN, makeTempDir, removeDir, runIris, runIrisWithInput } from '../helpers/iris.js';
import { parseYaml } from '../helpers/documents.js';

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
});
afterEach(() => removeDir(dir));

async function configure(extra = '') {
  await writeFile(
    join(home, 'config.yaml'),
    `# mine\nmodel:\n  provider: openai\n  default: main-m\nagent:\n  workspace: ${workspace}\n${extra}`,
    { mode: 0o600 },
  );
}
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
const models = () => fake.requests.map((r) => (r.body as { model?: string }).model);

describe('iris chat -q', () => {
  it('runs the tool loop and prints only the final answer on stdout', async () => {
    await configure('approval_mode: off\n');
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'echo from-the-shell' } }] }, { kind: 'text', deltas: ['The shell ', 'said hi.'] }, { kind: 'text', deltas: ['Shell greeting'] });
    const result = await runIris(['chat', '-q', 'say hi through the shell'], { home, env: env() });
    expect(result.stdout).toBe('The shell said hi.\n');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('  → run_command {"command":"echo from-the-shell"}\n');
    const toolResult = (fake.requests[1]?.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toContain('from-the-shell');
    expect(models()).toEqual(['main-m', 'main-m', 'main-m']); // the title slot is on auto
    const usage = JSON.parse((await runIris(['usage', '--by', 'task', '--json'], { home })).stdout) as Array<{ key: string; calls: number }>;
    expect(usage.map((r) => [r.key, r.calls]).sort()).toEqual([['main', 2], ['title_generation', 1]]);
  });

  it('denies a command in an unattended run under approval_mode manual, and tells the model', async () => {
    await configure('approval_mode: manual\n');
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch created-by-agent' } }] }, { kind: 'text', deltas: ['I could not run it.'] });
    const result = await runIris(['chat', '-q', 'make a file'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'I could not run it.\n' });
    expect(result.stderr).toContain('✗ not run: touch created-by-agent — approval_mode manual: no one to ask in an unattended run');
    const toolResult = (fake.requests[1]?.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'tool');
    expect(toolResult?.content).toMatch(/^command not run: approval_mode manual: no one to ask in an unattended run/);
    await expect(readFile(join(workspace, 'created-by-agent'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('exits 1 with the error when the model call fails', async () => {
    await configure();
    fake.script('main-m', { kind: 'error', status: 400, body: { error: { message: 'bad request body', type: 'invalid_request_error' } } });
    const result = await runIris(['chat', '-q', 'hi'], { home, env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^iris: error: openai \(chat_completions\) answered 400: bad request body\nsession: s_[0-9a-z]{12}\n$/);
  });

  it('uses --model for this run only', async () => {
    await configure();
    await runIris(['chat', '-q', 'hi', '--model', 'gpt-4.1'], { home, env: env() });
    expect(models()[0]).toBe('gpt-4.1');
    expect(parseYaml(await readFile(join(home, 'config.yaml'), 'utf8')).model?.default).toBe('main-m');
  });
});

describe('iris chat (REPL on piped input)', () => {
  // `iris chat < questions.txt | head`: once the reader of the answers has gone, no more turns
  // (each costs a model call, and tools may act), and no stack trace for the closed pipe.
  it('stops asking the model once the reader of its answers has gone', async () => {
    await configure();
    const child = spawn(process.execPath, [IRIS_BIN, 'chat'], { env: cleanEnv({ IRIS_HOME: home, ...env() }), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy(); // before the banner: the first write finds the reader gone
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(['one', 'two', 'three', ''].join('\n'));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(models()).toEqual([]);
  });

  it('chats, switches the session with /model, and writes config only with --global', async () => {
    await configure();
    const input = ['hello', '/model gpt-4.1', 'again', '/model gpt-5-mini --global', 'last', '/exit', ''].join('\n');
    const result = await runIrisWithInput(['chat'], input, { home, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('session now on openai · gpt-4.1\nnote: the prompt cache starts over');
    expect(result.stdout).toContain('config.yaml: main model set to openai · gpt-5-mini (new sessions)');
    expect(models()).toEqual(['main-m', 'main-m', 'gpt-4.1', 'gpt-5-mini']);
    const config = await readFile(join(home, 'config.yaml'), 'utf8');
    expect(config).toMatch(/^# mine\n/);
    expect(parseYaml(config).model).toEqual({ provider: 'openai', default: 'gpt-5-mini' });
  });

  it('/model alone shows the session model and the choices; the title note has its own line; leaving prints how to resume', async () => {
    await configure("model_aliases:\n  fast: { provider: openai, model: gpt-5-mini }\n");
    fake.script('main-m', { kind: 'text', deltas: ['Hi ', 'there.'] }, { kind: 'text', deltas: ['Greeting'] });
    const result = await runIrisWithInput(['chat'], 'hello\n/model\n', { home, env: env() });
    expect(result.code).toBe(0);
    const id = /^iris chat — session (s_\w+) /.exec(result.stdout)?.[1];
    expect(result.stdout).toContain('Hi there.\n  · title: Greeting\n');
    expect(result.stdout).toContain(
      'this session: openai · main-m\nopenai models: gpt-5.1, gpt-5.1-codex, gpt-5, gpt-5-mini, gpt-4.1, gpt-4o, o3, o4-mini\naliases: fast → openai/gpt-5-mini, opus → anthropic/claude-opus-4-7, sonnet → anthropic/claude-sonnet-4-6, haiku → anthropic/claude-haiku-4-5, gpt5 → openai/gpt-5.1, gpt5-mini → openai/gpt-5-mini, codex → openai/gpt-5.1-codex\nswitch with /model <name-or-alias> [--provider <provider>] [--global] (any model id works, not only these)\n',
    );
    expect(result.stdout.endsWith(`resume: iris chat --session ${id}\n`)).toBe(true);
    expect(models()).toEqual(['main-m', 'main-m']);
  });

  it('answers /help and rejects an unknown model provider, keeping the session model', async () => {
    await configure();
    const result = await runIrisWithInput(['chat'], '/help\n/model x --provider acme\n/nope\n', { home, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/model <name-or-alias> [--provider <p>] [--global]');
    expect(result.stdout).toContain('unknown provider "acme"; the session stays on openai · main-m');
    expect(result.stdout).toContain('unknown command /nope; /help lists them');
    expect(fake.requests).toEqual([]);
  });
});

describe('approval in the REPL', () => {
  it('asks before a command under approval_mode manual and runs it when allowed', async () => {
    await configure('approval_mode: manual\n');
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch allowed-file' } }] }, { kind: 'text', deltas: ['Made it.'] });
    const result = await runIrisWithInput(['chat'], 'make a file\ny\n', { home, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  ? run \`touch allowed-file\` in ${workspace} [y/N] `);
    expect(result.stdout).toContain('Made it.');
    expect(await readFile(join(workspace, 'allowed-file'), 'utf8')).toBe('');
  });
});

describe('smart approval and crashes', () => {
  it('runs a command the approval slot scores low, and records the decision', async () => {
    await configure('approval_mode: smart\nauxiliary:\n  approval: { provider: openai, model: judge-m }\n');
    fake.script('judge-m', { kind: 'text', deltas: ['{"risk":"low","reason":"creates a file in the project"}'] });
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'run_command', arguments: { command: 'touch judged-file' } }] }, { kind: 'text', deltas: ['Done.'] });
    const result = await runIris(['chat', '-q', 'make a file'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(models().slice(0, 3)).toEqual(['main-m', 'judge-m', 'main-m']);
    expect(await readFile(join(workspace, 'judged-file'), 'utf8')).toBe('');
    const log = await readFile(join(home, 'logs', 'agent.log'), 'utf8');
    expect(log).toContain('"command":"touch judged-file","approved":true,"by":"model"');
  });

  it('leaves a readable session when the process is killed mid-run', async () => {
    await configure();
    fake.script('main-m', { kind: 'hang', deltas: ['thinking…'] });
    const { spawn } = await import('node:child_process');
    const { IRIS_BIN, cleanEnv } = await import('../helpers/iris.js');
    const hung = fake.hanging();
    const child = spawn(process.execPath, [IRIS_BIN, 'chat', '-q', 'long task'], { env: cleanEnv({ IRIS_HOME: home, ...env() }), stdio: 'ignore' });
    await hung; // the run is mid-stream: its user message is stored, the answer is not
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const { openSqliteStore } = await import('../../src/store/sqlite-store.js');
    const store = await openSqliteStore(join(home, 'state.db'));
    let id = '';
    try {
      const [session] = await store.listSessions();
      expect(session).toMatchObject({ status: 'running', provider: 'openai', model: 'main-m' });
      id = session!.id;
      expect(await store.loadMessages(id)).toEqual([{ role: 'user', content: 'long task' }]);
    } finally {
      await store.close();
    }
    fake.script('main-m', { kind: 'text', deltas: ['resumed fine'] });
    const resumed = await runIris(['chat', '-q', 'continue', '--session', id], { home, env: env() });
    expect(resumed).toMatchObject({ code: 0, stdout: 'resumed fine\n' });
    const after = await openSqliteStore(join(home, 'state.db'));
    try {
      expect(await after.getSession(id)).toMatchObject({ status: 'idle' });
      expect((await after.loadMessages(id)).map((m) => m.content)).toEqual(['long task', 'continue', 'resumed fine']);
    } finally {
      await after.close();
    }
  });
});

describe('the tool loop through iris chat -q in every wire format', () => {
  it.each([
    ['openai', 'codex_responses', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '/v1' }],
    ['anthropic', 'anthropic_messages', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '' }],
    ['openai', 'chat_completions', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '/v1' }],
  ] as const)('%s %s', async (provider, apiMode, keys) => {
    await writeFile(
      join(home, 'config.yaml'),
      `model: { provider: ${provider}, default: main-m, api_mode: ${apiMode} }\nagent: { workspace: ${workspace} }\napproval_mode: off\n`,
      { mode: 0o600 },
    );
    await writeFile(join(workspace, 'notes.txt'), 'the answer is 42\n');
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'r1', name: 'read_file', arguments: { path: 'notes.txt' } }, { id: 'l1', name: 'list_files', arguments: {} }] },
      { kind: 'tool_calls', calls: [{ id: 'w1', name: 'write_file', arguments: { path: 'out.txt', content: 'forty-two' } }] },
      { kind: 'text', deltas: ['It is 42.'] },
      { kind: 'text', deltas: ['Reading notes'] },
    );
    const childEnv = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, k.endsWith('BASE_URL') ? `${fake.url}${v}` : v]));
    const result = await runIris(['chat', '-q', 'what is in notes.txt?'], { home, env: childEnv });
    expect(result).toMatchObject({ code: 0, stdout: 'It is 42.\n' });
    expect(await readFile(join(workspace, 'out.txt'), 'utf8')).toBe('forty-two');
    const paths = fake.requests.map((r) => r.path);
    expect(new Set(paths)).toEqual(new Set([{ chat_completions: '/v1/chat/completions', codex_responses: '/v1/responses', anthropic_messages: '/v1/messages' }[apiMode]]));
    expect(JSON.stringify(fake.requests[1]?.body)).toContain('the answer is 42');
  });
});

describe('Ctrl-C', () => {
  it('stops a one-shot run with exit 130 and keeps the session', async () => {
    await configure();
    fake.script('main-m', { kind: 'hang', deltas: ['partial answer'] });
    const { spawn } = await import('node:child_process');
    const { IRIS_BIN, REPO_ROOT, cleanEnv, waitForOutput } = await import('../helpers/iris.js');
    // -q prints nothing until the turn ends, so the child says (on stderr, through a test-only
    // --import) when its HTTP client has received and handed on the partial answer.
    const child = spawn(process.execPath, ['--import', join(REPO_ROOT, 'test/helpers/body-seen.mjs'), IRIS_BIN, 'chat', '-q', 'slow'], {
      env: cleanEnv({ IRIS_HOME: home, IRIS_TEST_BODY_SEEN: 'partial answer', ...env() }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise((r) => child.on('exit', (c) => r(c)));
    try {
      await waitForOutput(child.stderr, 'body-seen: partial answer\n');
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toBe('partial answer\n');
    const { openSqliteStore } = await import('../../src/store/sqlite-store.js');
    const store = await openSqliteStore(join(home, 'state.db'));
    try {
      const [session] = await store.listSessions();
      expect(session?.status).toBe('interrupted');
      expect((await store.loadMessages(session!.id)).map((m) => m.content)).toEqual(['slow', 'partial answer']);
    } finally {
      await store.close();
    }
  });
});
