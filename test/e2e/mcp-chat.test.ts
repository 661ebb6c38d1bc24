// MCP tools through `iris chat -q` against the fake upstream, with the real fake MCP server
// (test/fakes/mcp-server.mjs, over stdio) as a child of the iris process.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris, runIrisWithInput } from '../helpers/iris.js';

const FAKE_MCP = join(REPO_ROOT, 'test/fakes/mcp-server.mjs');

let fake: FakeUpstream;
let dir: string;
let home: string;
let workspace: string;
let callsFile: string;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  workspace = join(dir, 'work');
  callsFile = join(dir, 'mcp-calls.jsonl');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
});
afterEach(() => removeDir(dir));

async function configure(options: { approval?: string; tools?: number; extra?: string; toolsets?: string } = {}) {
  const server = { command: process.execPath, args: [FAKE_MCP], env: { MCP_FAKE_CALLS: callsFile, MCP_FAKE_TOOLS: String(options.tools ?? 0) } };
  await writeFile(
    join(home, 'config.yaml'),
    [
      'model:\n  provider: openai\n  default: main-m',
      `agent:\n  workspace: ${workspace}${options.toolsets ? `\n  toolsets: ${options.toolsets}` : ''}`,
      `approval_mode: ${options.approval ?? 'off'}`,
      `mcp_servers:\n  fake: ${JSON.stringify(server)}`,
      options.extra ?? '',
    ].join('\n'),
    { mode: 0o600 },
  );
}
const env = () => ({ OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });

type ChatBody = {
  model: string;
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  messages: Array<{ role: string; content: string }>;
};
const bodies = () => fake.requests.map((r) => r.body as ChatBody);
const mainBodies = () => bodies().filter((b) => b.model === 'main-m' && b.tools !== undefined);
const toolNames = (body: ChatBody | undefined) => (body?.tools ?? []).map((t) => t.function.name);
const mcpNames = (body: ChatBody | undefined) => toolNames(body).filter((n) => n.startsWith('mcp__'));
const toolMessages = (body: ChatBody | undefined) => (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);
async function calls(): Promise<string[]> {
  const text = await readFile(callsFile, 'utf8').catch(() => '');
  return text.trim() === '' ? [] : text.trim().split('\n').map((line) => (JSON.parse(line) as { tool: string }).tool);
}

describe('MCP tools in iris chat', () => {
  it('offers the server tools as mcp__<server>__<tool> with their schemas and sends the result back', async () => {
    await configure();
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'mcp__fake__echo', arguments: { text: 'hello mcp' } }] }, { kind: 'text', deltas: ['It echoed.'] }, { kind: 'text', deltas: ['Echo'] });
    const result = await runIris(['chat', '-q', 'echo something'], { home, env: env() });
    expect(result.stdout).toBe('It echoed.\n');
    expect(result.code).toBe(0);
    const first = mainBodies()[0];
    expect(mcpNames(first)).toEqual(['mcp__fake__echo', 'mcp__fake__peek', 'mcp__fake__picture', 'mcp__fake__crash']);
    expect(toolNames(first)).toContain('run_command');
    const echo = first?.tools?.find((t) => t.function.name === 'mcp__fake__echo')?.function;
    expect(echo?.description).toBe('Echo the text back.');
    expect(echo?.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] });
    expect(toolMessages(mainBodies()[1])).toEqual(['echo: hello mcp']);
    expect(await calls()).toEqual(['echo']);
  });

  it('toolsets narrow MCP away: agent.toolsets without default or mcp offers no MCP tool, and `mcp` alone offers only those', async () => {
    await configure({ toolsets: '[files-readonly]' });
    fake.script('main-m', { kind: 'text', deltas: ['No MCP here.'] }, { kind: 'text', deltas: ['Title'] });
    expect((await runIris(['chat', '-q', 'hello'], { home, env: env() })).code).toBe(0);
    expect(toolNames(mainBodies()[0])).toEqual(['read_file', 'list_files', 'search_files']);
    expect(await calls()).toEqual([]);

    fake.reset();
    await configure({ toolsets: '[mcp]' });
    fake.script('main-m', { kind: 'text', deltas: ['Only MCP.'] }, { kind: 'text', deltas: ['Title'] });
    expect((await runIris(['chat', '-q', 'hello'], { home, env: env() })).code).toBe(0);
    expect(toolNames(mainBodies()[0])).toEqual(['mcp__fake__echo', 'mcp__fake__peek', 'mcp__fake__picture', 'mcp__fake__crash']);
  });

  it('reports a server that crashes during a call as a tool error, and the turn goes on', async () => {
    await configure();
    fake.script(
      'main-m',
      { kind: 'tool_calls', calls: [{ id: 'c1', name: 'mcp__fake__crash', arguments: {} }] },
      { kind: 'tool_calls', calls: [{ id: 'c2', name: 'mcp__fake__echo', arguments: { text: 'still there?' } }] },
      { kind: 'text', deltas: ['Recovered.'] },
    );
    const result = await runIris(['chat', '-q', 'crash it'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'Recovered.\n' });
    expect(toolMessages(mainBodies()[1])[0]).toMatch(/^MCP server "fake" stopped during the call to crash \(.*\); it is restarted for the next call$/);
    expect(toolMessages(mainBodies()[2])[1]).toBe('echo: still there?');
    expect(await calls()).toEqual(['crash', 'echo']);
  });

  it('with 40 tools and max_tools 24, offers only what the mcp slot chose (after one fix)', async () => {
    await configure({ tools: 36, extra: 'mcp:\n  max_tools: 24\nauxiliary:\n  mcp:\n    model: mcp-m\n' });
    fake.script('mcp-m', { kind: 'text', deltas: ['Sure: mcp__fake__echo'] }, { kind: 'text', deltas: ['["mcp__fake__tool_7", "mcp__fake__echo"]'] });
    fake.script('main-m', { kind: 'text', deltas: ['Fine.'] });
    const result = await runIris(['chat', '-q', 'run tool seven'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'Fine.\n' });
    const slot = bodies().filter((b) => b.model === 'mcp-m');
    expect(slot).toHaveLength(2);
    const prompt = slot[0]?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(prompt).toContain('Choose at most 24 of these tools');
    expect(prompt).toContain('- mcp__fake__tool_36: Numbered tool 36.');
    expect(prompt).toContain('- mcp__fake__echo: Echo the text back.');
    expect(prompt.endsWith('User message:\nrun tool seven')).toBe(true);
    expect(slot[1]?.messages.at(-1)?.content).toMatch(/^That answer could not be used: it is not JSON\./);
    expect(mcpNames(mainBodies()[0])).toEqual(['mcp__fake__echo', 'mcp__fake__tool_7']);
    const log = await readFile(join(home, 'logs', 'agent.log'), 'utf8');
    expect(log).toContain('"chosen":["mcp__fake__tool_7","mcp__fake__echo"]');
  });

  it('asks nothing of the mcp slot at max_tools or below', async () => {
    await configure({ tools: 20, extra: 'auxiliary:\n  mcp:\n    model: mcp-m\n' });
    fake.script('main-m', { kind: 'text', deltas: ['Fine.'] });
    const result = await runIris(['chat', '-q', 'hi'], { home, env: env() });
    expect(result.code).toBe(0);
    expect(bodies().filter((b) => b.model === 'mcp-m')).toEqual([]);
    expect(mcpNames(mainBodies()[0])).toHaveLength(24);
  });

  it('puts MCP tools behind the approval policy, except the ones declared read-only', async () => {
    await configure({ approval: 'manual' });
    fake.script(
      'main-m',
      {
        kind: 'tool_calls',
        calls: [
          { id: 'c1', name: 'mcp__fake__echo', arguments: { text: 'needs approval' } },
          { id: 'c2', name: 'mcp__fake__peek', arguments: {} },
        ],
      },
      { kind: 'text', deltas: ['Done.'] },
    );
    const result = await runIris(['chat', '-q', 'try both'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(toolMessages(mainBodies()[1])).toEqual(['tool not run: approval_mode manual: no one to ask in an unattended run', 'peeked']);
    expect(await calls()).toEqual(['peek']);
  });

  it('asks the user in the REPL before an MCP tool runs, showing the tool and its arguments', async () => {
    await configure({ approval: 'manual' });
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'mcp__fake__echo', arguments: { text: 'allowed' } }] }, { kind: 'text', deltas: ['Echoed.'] });
    const result = await runIrisWithInput(['chat'], 'echo it\ny\n', { home, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  ? run \`mcp__fake__echo {"text":"allowed"}\` in ${workspace} [y/N] `);
    expect(toolMessages(mainBodies()[1])).toEqual(['echo: allowed']);
    expect(await calls()).toEqual(['echo']);
  });

  it('under approval_mode smart, lets the approval slot score an MCP call', async () => {
    await configure({ approval: 'smart', extra: 'auxiliary:\n  approval: { provider: openai, model: judge-m }\n' });
    fake.script('judge-m', { kind: 'text', deltas: ['{"risk":"high","reason":"writes outside"}'] });
    fake.script('main-m', { kind: 'tool_calls', calls: [{ id: 'c1', name: 'mcp__fake__echo', arguments: { text: 'judged' } }] }, { kind: 'text', deltas: ['No.'] });
    const result = await runIris(['chat', '-q', 'echo it'], { home, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: 'No.\n' });
    const judged = bodies().find((b) => b.model === 'judge-m');
    expect(judged?.messages[0]?.content).toContain(`Command (JSON string): ${JSON.stringify('mcp__fake__echo {"text":"judged"}')}`);
    expect(toolMessages(mainBodies()[1])[0]).toMatch(/^tool not run: approval_mode smart: approval model: high risk: writes outside/);
    expect(await calls()).toEqual([]);
  });
});
