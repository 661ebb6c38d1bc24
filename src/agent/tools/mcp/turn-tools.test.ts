// The per-message tool list and the approval gate, over a manager that starts nothing.
import { describe, expect, it } from 'vitest';
import { APPROVED, makeContext } from '../test-support.js';
import type { McpAvailableTool, McpManager } from './manager.js';
import { createMcpTool } from './mcp-tool.js';
import { createMcpTurnTools, type AskMcpSlot, type SlotAnswer } from './turn-tools.js';

const dirs = { workspace: '/tmp/ws', home: '/tmp/home' };

function available(name: string, readOnly = false): McpAvailableTool {
  return { server: 's', exposedName: `mcp__s__${name}`, info: { name, description: `${name} tool`, inputSchema: { type: 'object' }, readOnly } };
}

function fakeManager(tools: readonly McpAvailableTool[]): McpManager & { turns: number; called: string[] } {
  const manager = {
    turns: 0,
    called: [] as string[],
    beginTurn: () => void manager.turns++,
    listTools: () => Promise.resolve({ tools, errors: [{ server: 'down', error: 'no such command' }] }),
    callTool: (_server: string, tool: string) => {
      manager.called.push(tool);
      return Promise.resolve({ ok: true, content: `${tool} done` });
    },
    close: () => Promise.resolve(),
  };
  return manager;
}

function scriptedSlot(...answers: SlotAnswer[]): AskMcpSlot & { asked: number } {
  const ask = Object.assign(
    () => {
      ask.asked++;
      return Promise.resolve(answers.shift() ?? { ok: false as const, error: 'no more answers' });
    },
    { asked: 0 },
  );
  return ask;
}

const log = { lines: [] as Array<[Record<string, unknown>, string]>, info(f: Record<string, unknown>, m: string) { this.lines.push([f, m]); }, warn(f: Record<string, unknown>, m: string) { this.lines.push([f, m]); } };

describe('MCP tools and approval', () => {
  it('asks for approval with the tool name and arguments, and does not call a denied tool', async () => {
    const manager = fakeManager([]);
    const tool = createMcpTool(available('write'), (...args) => manager.callTool(...args));
    const context = makeContext(dirs, { decision: { ...APPROVED, approved: false, reason: 'denied by the user' } });
    expect(await tool.run({ path: 'a' }, context)).toEqual({ ok: false, content: 'tool not run: denied by the user' });
    expect(context.requests).toEqual([{ command: 'mcp__s__write {"path":"a"}', cwd: '/tmp/ws' }]);
    expect(manager.called).toEqual([]);
  });

  it('runs a read-only tool without asking', async () => {
    const manager = fakeManager([]);
    const tool = createMcpTool(available('read', true), (...args) => manager.callTool(...args));
    const context = makeContext(dirs);
    expect(tool.readOnly).toBe(true);
    expect(await tool.run({}, context)).toEqual({ ok: true, content: 'read done' });
    expect(context.requests).toEqual([]);
  });
});

describe('createMcpTurnTools', () => {
  const many = Array.from({ length: 5 }, (_, i) => available(`t${i + 1}`));

  it('offers every tool at max_tools or below, without asking the slot, and reports a server that is down', async () => {
    const manager = fakeManager(many);
    const ask = scriptedSlot();
    const notices: string[] = [];
    const tools = await createMcpTurnTools({ manager, maxTools: 5, log })('hi', ask, (n) => notices.push(n));
    expect(tools.map((t) => t.definition.name)).toEqual(many.map((t) => t.exposedName));
    expect(ask.asked).toBe(0);
    expect(manager.turns).toBe(1);
    expect(notices).toEqual(['MCP server down is unavailable: no such command']);
  });

  it("offers the slot's choice, in listing order", async () => {
    const ask = scriptedSlot({ ok: true, text: '["mcp__s__t4","mcp__s__t2"]' });
    const tools = await createMcpTurnTools({ manager: fakeManager(many), maxTools: 2, log })('hi', ask, () => undefined);
    expect(tools.map((t) => t.definition.name)).toEqual(['mcp__s__t2', 'mcp__s__t4']);
    expect(ask.asked).toBe(1);
  });

  it('falls back to the first max_tools, with a notice, when the slot answers badly twice', async () => {
    const ask = scriptedSlot({ ok: true, text: 't1 and t2' }, { ok: true, text: '["nope"]' });
    const notices: string[] = [];
    const tools = await createMcpTurnTools({ manager: fakeManager(many), maxTools: 2, log })('hi', ask, (n) => notices.push(n));
    expect(tools.map((t) => t.definition.name)).toEqual(['mcp__s__t1', 'mcp__s__t2']);
    expect(ask.asked).toBe(2);
    expect(notices.at(-1)).toBe('the mcp slot\'s answer was malformed twice (unknown tool name "nope"); offering the first 2 of 5 MCP tools');
  });

  it('falls back at once when the slot call fails', async () => {
    const ask = scriptedSlot({ ok: false, error: 'HTTP 500' });
    const notices: string[] = [];
    const tools = await createMcpTurnTools({ manager: fakeManager(many), maxTools: 3, log })('hi', ask, (n) => notices.push(n));
    expect(tools).toHaveLength(3);
    expect(ask.asked).toBe(1);
    expect(notices.at(-1)).toBe('the mcp slot failed: HTTP 500; offering the first 3 of 5 MCP tools');
  });
});
