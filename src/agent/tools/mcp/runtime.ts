// The MCP part of an agent runtime: the manager for the config's enabled servers and the per-turn
// tool chooser. None when no server is enabled, so a run without MCP pays nothing for it.
import type { Config } from '../../../config/schema.js';
import { createMcpManager, type McpManager } from './manager.js';
import type { McpPool } from './pool.js';
import { resolveMcpServers, type McpServerProblem } from './servers.js';
import { createMcpTurnTools, type McpTurnLog, type McpTurnTools } from './turn-tools.js';

export type McpRuntime = {
  readonly manager: McpManager;
  readonly turnTools: McpTurnTools;
  /** Server entries that could not be used (neither command nor url, or both). */
  readonly problems: readonly McpServerProblem[];
  /** The run is over: its own servers stop, or a leased manager goes back to the pool. */
  close(): Promise<void>;
};

/**
 * The MCP part of one runtime. With a pool (the gateway), the manager is leased from it and
 * outlives the runtime (`close` gives it back); without one (`iris chat`), it is the runtime's own
 * and `close` stops its servers.
 */
export function createMcpRuntime(config: Pick<Config, 'mcp_servers' | 'mcp'>, log: McpTurnLog, pool?: McpPool): McpRuntime | undefined {
  const { servers, problems } = resolveMcpServers(config);
  for (const problem of problems) log.warn({ server: problem.server, error: problem.error }, 'mcp server skipped');
  if (!servers.some((server) => server.enabled)) return undefined;
  const lease = pool?.lease(config);
  const manager = lease?.manager ?? createMcpManager({ servers, timeoutMs: config.mcp.timeout * 1000 });
  const close = lease ? async () => lease.release() : () => manager.close();
  return { manager, turnTools: createMcpTurnTools({ manager, maxTools: config.mcp.max_tools, log }), problems, close };
}
