// `iris mcp list|tools|add|remove|test` against the real fake MCP server (stdio and HTTP).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT, removeDir, runIris } from '../helpers/iris.js';
import { parseYaml } from '../helpers/documents.js';

const FAKE_MCP = join(REPO_ROOT, 'test/fakes/mcp-server.mjs');

let dir: string;
let home: string;
let http: ChildProcess | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  home = join(dir, 'home');
  await mkdir(home, { mode: 0o700 });
});
afterEach(async () => {
  http?.kill();
  http = undefined;
  await removeDir(dir);
});

const iris = (...args: string[]) => runIris(args, { home });

async function startHttpFake(): Promise<string> {
  const child = spawn(process.execPath, [FAKE_MCP, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  http = child;
  return new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
  });
}

describe('iris mcp', () => {
  it('adds a stdio server to config.yaml, lists it without env values, lists its tools, and removes it', async () => {
    const added = await iris('mcp', 'add', 'fake', '--env', 'MCP_FAKE_TOOLS=1', '--env', 'FAKE_TOKEN=hush-hush', '--exclude', 'crash', '--', process.execPath, FAKE_MCP);
    expect(added).toMatchObject({ code: 0, stdout: `added MCP server fake (stdio: ${process.execPath} ${FAKE_MCP}); check it with iris mcp test fake\n` });
    const config = parseYaml(await readFile(join(home, 'config.yaml'), 'utf8')) as { mcp_servers?: unknown };
    expect(config.mcp_servers).toEqual({
      fake: { command: process.execPath, args: [FAKE_MCP], env: { MCP_FAKE_TOOLS: '1', FAKE_TOKEN: 'hush-hush' }, tools: { exclude: ['crash'] } },
    });

    const list = await iris('mcp', 'list', '--json');
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain('hush-hush');
    expect(JSON.parse(list.stdout)).toEqual({
      servers: [{ name: 'fake', enabled: true, transport: 'stdio', target: `${process.execPath} ${FAKE_MCP}`, env_names: ['MCP_FAKE_TOOLS', 'FAKE_TOKEN'], header_names: [], exclude: ['crash'] }],
      problems: [],
    });

    const tools = await iris('mcp', 'tools', 'fake', '--json');
    expect(tools.code).toBe(0);
    const parsed = JSON.parse(tools.stdout) as { tools: Array<{ exposed_name: string; read_only: boolean }>; errors: unknown[] };
    expect(parsed.errors).toEqual([]);
    expect(parsed.tools.map((t) => [t.exposed_name, t.read_only])).toEqual([
      ['mcp__fake__echo', false],
      ['mcp__fake__peek', true],
      ['mcp__fake__picture', false],
      ['mcp__fake__tool_1', false],
    ]);

    expect(await iris('mcp', 'remove', 'fake')).toMatchObject({ code: 0, stdout: 'removed MCP server fake\n' });
    expect(await iris('mcp', 'remove', 'fake')).toMatchObject({ code: 1, stderr: 'iris: error: no MCP server "fake" in config.yaml (iris mcp list shows them)\n' });
  });

  it('test exits 0 for a healthy server and 1 with the reason for a broken one', async () => {
    await iris('mcp', 'add', 'good', '--', process.execPath, FAKE_MCP);
    await iris('mcp', 'add', 'bad', '--env', 'MCP_FAKE_FAIL_START=1', '--', process.execPath, FAKE_MCP);
    const good = await iris('mcp', 'test', 'good');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^MCP server good is healthy: 4 tools in \d+ ms\n$/);
    const bad = await iris('mcp', 'test', 'bad');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('iris: MCP server bad failed: ');
    expect(bad.stderr).toContain('refusing to start');
    const badJson = await iris('mcp', 'test', 'bad', '--json');
    expect(badJson.code).toBe(1);
    expect(JSON.parse(badJson.stdout)).toMatchObject({ server: 'bad', ok: false, error: expect.stringContaining('refusing to start') as unknown });
    expect((await iris('mcp', 'test', 'missing')).code).toBe(1);
    const all = await iris('mcp', 'tools');
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('mcp__good__echo');
    expect(all.stderr).toContain('MCP server bad: ');
  });

  it('skips a server whose tool listing never ends, naming it, at the page limit', async () => {
    await iris('mcp', 'add', 'endless', '--env', 'MCP_FAKE_ENDLESS_PAGES=1', '--', process.execPath, FAKE_MCP);
    await iris('mcp', 'add', 'good', '--', process.execPath, FAKE_MCP);
    const all = await iris('mcp', 'tools');
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('mcp__good__echo');
    expect(all.stdout).not.toContain('page_');
    expect(all.stderr).toBe('iris: warning: MCP server endless: its tool listing goes on past 100 pages\n');
    const test = await iris('mcp', 'test', 'endless', '--json');
    expect(test.code).toBe(1);
    expect(JSON.parse(test.stdout)).toMatchObject({ server: 'endless', ok: false, error: 'its tool listing goes on past 100 pages' });
  });

  it('adds and tests a streamable-HTTP server', async () => {
    const url = await startHttpFake();
    expect((await iris('mcp', 'add', 'web', '--url', url, '--header', 'Authorization: Bearer sekrit')).code).toBe(0);
    const list = await iris('mcp', 'list');
    expect(list.stdout).toContain(`web     yes      http       ${url}`);
    const test = await iris('mcp', 'test', 'web', '--json');
    expect(test.code).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ server: 'web', ok: true, tools: ['mcp__web__echo', 'mcp__web__peek', 'mcp__web__picture', 'mcp__web__crash'] });
    http?.kill();
    const down = await iris('mcp', 'test', 'web');
    expect(down.code).toBe(1);
  });

  it('refuses an add without a command or a url (usage, exit 2)', async () => {
    const result = await iris('mcp', 'add', 'nothing');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give either a command');
  });
});
