// The gateway keeps one connection per MCP server across runs (DECISIONS § MCP limits): ten
// webhook runs that each call an MCP tool are served by one process of the fake MCP server
// (test/fakes/mcp-server.mjs records every call with its pid), and stopping the gateway stops it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fakes/upstream.js';
import { postEvent, startGatewayProcess, waitFor, type GatewayProcess } from '../helpers/gateway.js';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';

const FAKE_MCP = join(REPO_ROOT, 'test/fakes/mcp-server.mjs');
const SECRET = 'mcp-secret-0123456789abcdef';

let fake: FakeUpstream;
let dir: string;
let home: string;
let callsFile: string;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  dir = await makeTempDir();
  home = join(dir, 'home');
  callsFile = join(dir, 'mcp-calls.jsonl');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop('SIGKILL');
  await removeDir(dir);
});

async function configure(): Promise<void> {
  const server = { command: process.execPath, args: [FAKE_MCP], env: { MCP_FAKE_CALLS: callsFile } };
  await writeFile(
    join(home, 'config.yaml'),
    [
      'model:\n  provider: openai\n  default: main-m',
      // Titles on a model of their own, so the main model's script is only the runs'.
      'auxiliary:\n  title_generation: { provider: openai, model: title-m }',
      'approval_mode: "off"',
      `mcp_servers:\n  fake: ${JSON.stringify(server)}`,
      'platforms:\n  webhook:\n    enabled: true\n    extra:\n      host: 127.0.0.1\n      port: 0\n      routes:\n        ping:\n          secret: mcp-secret-0123456789abcdef\n          events: [push]\n          prompt: "Echo {n} through the MCP server."\n          deliver: log',
    ].join('\n'),
    { mode: 0o600 },
  );
}

type Row = { delivery_id: string; state: string };
async function states(): Promise<Map<string, string>> {
  const result = await runIris(['webhook', 'deliveries', '--json'], { home });
  return new Map((JSON.parse(result.stdout) as Row[]).map((row) => [row.delivery_id, row.state]));
}

async function mcpCalls(): Promise<Array<{ tool: string; args: { text: string }; pid: number }>> {
  const text = await readFile(callsFile, 'utf8').catch(() => '');
  return text.trim() === '' ? [] : text.trim().split('\n').map((line) => JSON.parse(line) as { tool: string; args: { text: string }; pid: number });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP servers in the gateway', () => {
  it('one MCP process serves ten webhook runs, and stops with the gateway', async () => {
    await configure();
    const gateway = await startGatewayProcess(home, { OPENAI_API_KEY: 'test-key-0123456789', OPENAI_BASE_URL: `${fake.url}/v1` });
    running.push(gateway);
    for (let n = 1; n <= 10; n++) {
      fake.script('main-m', { kind: 'tool_calls', calls: [{ id: `c${n}`, name: 'mcp__fake__echo', arguments: { text: `run ${n}` } }] }, { kind: 'text', deltas: [`echoed ${n}`] });
      const answer = await postEvent(gateway.url, 'ping', { n }, { secret: SECRET, event: 'push', delivery: `d-${n}` });
      expect(answer.status).toBe(202);
      await waitFor(async () => ((await states()).get(`d-${n}`) === 'delivered' ? true : undefined), 15_000, `run ${n}`);
    }
    const calls = await mcpCalls();
    expect(calls.map((call) => call.args.text)).toEqual(Array.from({ length: 10 }, (_, i) => `run ${i + 1}`));
    const pids = [...new Set(calls.map((call) => call.pid))];
    expect(pids).toHaveLength(1);
    expect(alive(pids[0]!)).toBe(true);
    expect(await gateway.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    running.splice(0);
    await waitFor(async () => (alive(pids[0]!) ? undefined : true), 5_000, 'the MCP server to stop with the gateway');
  }, 90_000);
});
