import { describe, expect, it } from 'vitest';
import type { Config } from '../../../config/schema.js';
import type { McpConnectResult } from './connection.js';
import { createMcpPool } from './pool.js';

type McpConfig = Pick<Config, 'mcp_servers' | 'mcp'>;
const configWith = (servers: Record<string, { command: string; enabled?: boolean }>): McpConfig =>
  ({ mcp_servers: Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { enabled: true, ...s }])), mcp: { timeout: 10, max_tools: 24 } });

/** A connect that counts starts and closes, with one tool per server. */
function countingConnect() {
  const counts = { started: [] as string[], closed: [] as string[] };
  const connect = async (server: { name: string }): Promise<McpConnectResult> => {
    counts.started.push(server.name);
    let open = true;
    return {
      ok: true,
      connection: {
        tools: [{ name: 'echo', description: '', inputSchema: {}, readOnly: false }],
        alive: () => open,
        call: async () => ({ kind: 'answer', answer: { content: [{ type: 'text', text: 'ok' }] } }),
        close: async () => {
          open = false;
          counts.closed.push(server.name);
        },
      },
    };
  };
  return { counts, connect };
}

const ONE = configWith({ fake: { command: 'fake-mcp' } });

describe('the MCP pool', () => {
  it('starts a server once across ten runs that lease it one after another', async () => {
    const { counts, connect } = countingConnect();
    const pool = createMcpPool({ connect });
    for (let run = 0; run < 10; run++) {
      const lease = pool.lease(ONE)!;
      lease.manager.beginTurn();
      expect((await lease.manager.listTools()).tools.map((t) => t.exposedName)).toEqual(['mcp__fake__echo']);
      lease.release();
    }
    expect(counts.started).toEqual(['fake']);
    await pool.close();
    expect(counts.closed).toEqual(['fake']);
  });

  it('shares one manager between runs at the same time', async () => {
    const { counts, connect } = countingConnect();
    const pool = createMcpPool({ connect });
    const [a, b] = [pool.lease(ONE)!, pool.lease(ONE)!];
    expect(a.manager).toBe(b.manager);
    await Promise.all([a.manager.listTools(), b.manager.listTools()]);
    expect(counts.started).toEqual(['fake']);
    await pool.close();
  });

  it('closes an idle manager after the idle time, and starts the server again when a run needs it', async () => {
    const { counts, connect } = countingConnect();
    const pool = createMcpPool({ connect, idleMs: 20 });
    const first = pool.lease(ONE)!;
    await first.manager.listTools();
    first.release();
    first.release(); // a second release changes nothing
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(counts.closed).toEqual(['fake']);
    const again = pool.lease(ONE)!;
    await again.manager.listTools();
    expect(counts.started).toEqual(['fake', 'fake']);
    await pool.close();
  });

  it('retires the old servers when the config names others, once their last run ends', async () => {
    const { counts, connect } = countingConnect();
    const pool = createMcpPool({ connect });
    const old = pool.lease(ONE)!;
    await old.manager.listTools();
    const next = pool.lease(configWith({ other: { command: 'other-mcp' } }))!;
    await next.manager.listTools();
    expect(counts.closed).toEqual([]);
    old.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(counts.closed).toEqual(['fake']);
    next.release();
    await pool.close();
    expect(counts.closed).toEqual(['fake', 'other']);
  });

  it('has nothing to lease when no server is enabled', () => {
    const pool = createMcpPool({ connect: countingConnect().connect });
    expect(pool.lease(configWith({}))).toBeUndefined();
    expect(pool.lease(configWith({ off: { command: 'x', enabled: false } }))).toBeUndefined();
  });
});
