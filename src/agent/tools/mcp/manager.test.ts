// The manager against the real fake MCP server (test/fakes/mcp-server.mjs) over stdio and HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpManager, type McpManager } from './manager.js';
import type { McpServer } from './servers.js';

const FAKE = join(import.meta.dirname, '../../../../test/fakes/mcp-server.mjs');

function stdioServer(env: Record<string, string> = {}, extra: Partial<McpServer> = {}): McpServer {
  return { name: 'fake', enabled: true, transport: { kind: 'stdio', command: process.execPath, args: [FAKE], env }, ...extra };
}

let manager: McpManager | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  child?.kill();
  child = undefined;
});

describe('the MCP manager', () => {
  it('lists the tools with their schemas and read-only hints, and calls them', async () => {
    manager = createMcpManager({ servers: [stdioServer({ MCP_FAKE_TOOLS: '2' })], timeoutMs: 10_000 });
    manager.beginTurn();
    const listing = await manager.listTools();
    expect(listing.errors).toEqual([]);
    expect(listing.tools.map((t) => t.exposedName)).toEqual([
      'mcp__fake__echo',
      'mcp__fake__peek',
      'mcp__fake__picture',
      'mcp__fake__crash',
      'mcp__fake__tool_1',
      'mcp__fake__tool_2',
    ]);
    const echo = listing.tools.find((t) => t.info.name === 'echo');
    expect(echo?.info.readOnly).toBe(false);
    expect(echo?.info.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(listing.tools.find((t) => t.info.name === 'peek')?.info.readOnly).toBe(true);
    expect(await manager.callTool('fake', 'echo', { text: 'hi' })).toEqual({ ok: true, content: 'echo: hi' });
    const picture = await manager.callTool('fake', 'picture', {});
    expect(picture.content).toMatch(/^a red dot\n\[image \(image\/png, \d+ bytes\) returned by the tool; not shown as text\]$/);
  });

  it('applies tools.include and tools.exclude', async () => {
    manager = createMcpManager({ servers: [stdioServer({ MCP_FAKE_TOOLS: '3' }, { include: ['echo', 'tool_1', 'tool_2'], exclude: ['tool_2'] })], timeoutMs: 10_000 });
    const listing = await manager.listTools();
    expect(listing.tools.map((t) => t.info.name)).toEqual(['echo', 'tool_1']);
  });

  it('restarts a server that died once per turn, then reports it as a tool error', async () => {
    const calls = join(mkdtempSync(join(tmpdir(), 'iris-mcp-')), 'calls.jsonl');
    manager = createMcpManager({ servers: [stdioServer({ MCP_FAKE_CALLS: calls })], timeoutMs: 10_000 });
    manager.beginTurn();
    const crashed = await manager.callTool('fake', 'crash', {});
    expect(crashed.ok).toBe(false);
    expect(crashed.content).toMatch(/^MCP server "fake" stopped during the call to crash \(.*crashing on purpose.*\); it is restarted for the next call$/);
    expect(await manager.callTool('fake', 'echo', { text: 'again' })).toEqual({ ok: true, content: 'echo: again' });
    const second = await manager.callTool('fake', 'crash', {});
    expect(second.content).toMatch(/it was already restarted once this turn and stays stopped until the next message$/);
    const refused = await manager.callTool('fake', 'echo', { text: 'no' });
    expect(refused.ok).toBe(false);
    expect(refused.content).toMatch(/already restarted once this turn/);
    manager.beginTurn();
    expect(await manager.callTool('fake', 'echo', { text: 'next turn' })).toEqual({ ok: true, content: 'echo: next turn' });
    const ran = readFileSync(calls, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { tool: string; pid: number });
    expect(ran.map((r) => r.tool)).toEqual(['crash', 'echo', 'crash', 'echo']);
    expect(new Set(ran.map((r) => r.pid)).size).toBe(3);
  });

  it('reports a server that does not start, with its stderr', async () => {
    manager = createMcpManager({ servers: [stdioServer({ MCP_FAKE_FAIL_START: '1' })], timeoutMs: 10_000 });
    const listing = await manager.listTools();
    expect(listing.tools).toEqual([]);
    expect(listing.errors.map((e) => e.server)).toEqual(['fake']);
    expect(listing.errors[0]?.error).toContain('refusing to start');
  });

  it('skips a tool whose model-facing name would repeat another', async () => {
    const info = (name: string) => ({ name, description: '', inputSchema: { type: 'object' }, readOnly: false });
    manager = createMcpManager({
      servers: [stdioServer()],
      timeoutMs: 1000,
      connect: () =>
        Promise.resolve({
          ok: true,
          connection: { tools: [info('a.b'), info('a_b')], alive: () => true, call: () => Promise.resolve({ kind: 'failed', error: 'x' }), close: () => Promise.resolve() },
        }),
    });
    const listing = await manager.listTools();
    expect(listing.tools.map((t) => [t.info.name, t.exposedName])).toEqual([['a.b', 'mcp__fake__a_b']]);
    expect(listing.errors).toEqual([{ server: 'fake', error: 'tool "a_b" is skipped: its name reads as mcp__fake__a_b, like another tool\'s' }]);
  });

  it('speaks streamable HTTP', async () => {
    child = spawn(process.execPath, [FAKE, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        const match = /listening (\S+)/.exec(chunk.toString());
        if (match?.[1]) resolve(match[1]);
      });
    });
    manager = createMcpManager({ servers: [{ name: 'web', enabled: true, transport: { kind: 'http', url, headers: {} } }], timeoutMs: 10_000 });
    const listing = await manager.listTools();
    expect(listing.tools.map((t) => t.exposedName)).toContain('mcp__web__echo');
    expect(await manager.callTool('web', 'echo', { text: 'over http' })).toEqual({ ok: true, content: 'echo: over http' });
  });
});
