// The gateway's MCP connections, kept across runs (DECISIONS § MCP limits): every webhook run and
// chat message of one gateway leases the manager for the servers the current config names, instead
// of starting each stdio server for each event. A manager starts its servers lazily (on the first
// turn that lists tools) and restarts one that died (manager.ts); it is closed once no run has
// leased it for `idleMs`, and at once when the config names other servers and the last run on the
// old ones ends.
import type { Config } from '../../../config/schema.js';
import { createMcpManager, type McpManager, type McpManagerOptions } from './manager.js';
import { resolveMcpServers } from './servers.js';

export type McpLease = { readonly manager: McpManager; release(): void };

export type McpPool = {
  /** The shared manager for the config's enabled servers; undefined when none is enabled. */
  lease(config: Pick<Config, 'mcp_servers' | 'mcp'>): McpLease | undefined;
  close(): Promise<void>;
};

/** How long a manager nobody leases keeps its servers running. */
export const MCP_IDLE_MS = 5 * 60_000;

type Entry = { readonly manager: McpManager; users: number; timer?: NodeJS.Timeout };

export function createMcpPool(options: { readonly idleMs?: number; readonly connect?: McpManagerOptions['connect'] } = {}): McpPool {
  const idleMs = options.idleMs ?? MCP_IDLE_MS;
  const entries = new Map<string, Entry>();
  let current: string | undefined;

  function retire(key: string, entry: Entry): void {
    clearTimeout(entry.timer);
    entries.delete(key);
    void entry.manager.close();
  }

  return {
    lease(config) {
      const { servers } = resolveMcpServers(config);
      if (!servers.some((server) => server.enabled)) return undefined;
      const timeoutMs = config.mcp.timeout * 1000;
      // Same servers, same settings: same manager. A changed config makes another one.
      const key = JSON.stringify({ servers, timeoutMs });
      let entry = entries.get(key);
      if (!entry) {
        entry = { manager: createMcpManager({ servers, timeoutMs, ...(options.connect ? { connect: options.connect } : {}) }), users: 0 };
        entries.set(key, entry);
      }
      // Managers of an older config go as soon as no run uses them.
      current = key;
      for (const [other, old] of entries) if (other !== key && old.users === 0) retire(other, old);
      const leased = entry;
      leased.users += 1;
      clearTimeout(leased.timer);
      let released = false;
      return {
        manager: leased.manager,
        release() {
          if (released) return;
          released = true;
          leased.users -= 1;
          if (leased.users > 0) return;
          if (key !== current) return retire(key, leased);
          leased.timer = setTimeout(() => retire(key, leased), idleMs);
          leased.timer.unref();
        },
      };
    },

    async close() {
      const all = [...entries.values()];
      entries.clear();
      for (const entry of all) clearTimeout(entry.timer);
      await Promise.all(all.map((entry) => entry.manager.close()));
    },
  };
}
